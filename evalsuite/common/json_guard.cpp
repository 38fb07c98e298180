#include "evalsuite/common/json_guard.h"

#include "evalsuite/common/error.h"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace evalsuite {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when none starts there (RFC 3629: no
// overlongs, no surrogates, nothing above U+10FFFF).
size_t ValidSequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;
    if (b0 == 0xED) high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;
    if (b0 == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

// Where no valid sequence starts at text[i]: how many bytes one U+FFFD stands for. A lead byte followed by
// bytes that could still continue it is one broken sequence (Unicode's "maximal subpart", as Python's
// errors="replace" counts); any other byte stands alone.
size_t MaximalInvalidSubpart(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) low = 0xA0;
    if (b0 == 0xED) high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) low = 0x90;
    if (b0 == 0xF4) high = 0x8F;
  } else {
    return 1;
  }
  size_t k = 1;
  for (; k < length && i + k < text.size(); ++k) {
    const unsigned char b = byte(i + k);
    const unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
    if (b < lo || b > hi) break;
  }
  return k;
}

}  // namespace

int JsonNestingDepth(std::string_view text, int stop_after) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest >= stop_after) return deepest;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json TryParseUserJson(std::string_view text, std::string& error, int max_depth) {
  error.clear();
  if (JsonNestingDepth(text, max_depth + 1) > max_depth) {
    error = "nested deeper than " + std::to_string(max_depth) + " levels";
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  // nlohmann reads a NUL byte as the end of the input and would accept "1\0anything": JSON has no raw NUL.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    error = "not valid JSON: a NUL byte at byte " + std::to_string(nul + 1);
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    // parse_error ("[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ...") and
    // out_of_range (406: a number like 1e999 that overflows a double). The message quotes what it last read,
    // which may be invalid UTF-8: repaired, so that the warning itself can be written anywhere.
    const std::string what = e.what();
    const auto start = what.find("] ");
    error = "not valid JSON: " + ToValidUtf8(start == std::string::npos ? what : what.substr(start + 2));
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

nlohmann::json ParseUserJson(std::string_view text, const std::string& where, int max_depth) {
  std::string error;
  nlohmann::json value = TryParseUserJson(text, error, max_depth);
  if (!error.empty()) throw InputError(where, error);
  return value;
}

bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    // ASCII, eight bytes at a time: logs are almost all ASCII, so this is the loop that runs.
    if (i + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const size_t n = ValidSequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string ToValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    const size_t n = ValidSequenceLength(text, i);
    if (n > 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    out += "\xEF\xBF\xBD";
    i += MaximalInvalidSubpart(text, i);
  }
  return out;
}

namespace {

bool IsHex4(std::string_view text, size_t at) {
  if (at + 4 > text.size()) return false;
  for (size_t k = at; k < at + 4; ++k) {
    if (!std::isxdigit(static_cast<unsigned char>(text[k]))) return false;
  }
  return true;
}

unsigned Hex4(std::string_view text, size_t at) { return std::stoul(std::string(text.substr(at, 4)), nullptr, 16); }

}  // namespace

std::string RepairJsonText(std::string_view text, JsonRepairs* repairs) {
  JsonRepairs local;
  JsonRepairs& count = repairs != nullptr ? *repairs : local;
  count = {};
  std::string valid;
  if (!IsValidUtf8(text)) {
    valid = ToValidUtf8(text);
    // Each U+FFFD that was not in the text is one repair.
    auto replacements = [](std::string_view s) {
      int n = 0;
      for (size_t at = s.find("\xEF\xBF\xBD"); at != std::string_view::npos; at = s.find("\xEF\xBF\xBD", at + 3)) ++n;
      return n;
    };
    count.invalid_utf8 = replacements(valid) - replacements(text);
    text = valid;
  }
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      if (c == '"') in_string = true;
      out += c;
      continue;
    }
    if (c == '"') {
      in_string = false;
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char* kHex = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
      ++count.control_chars;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == 'u' && IsHex4(text, i + 2)) {
      const unsigned unit = Hex4(text, i + 2);
      const bool high = unit >= 0xD800 && unit <= 0xDBFF;
      const bool low = unit >= 0xDC00 && unit <= 0xDFFF;
      if (high && i + 12 <= text.size() && text[i + 6] == '\\' && text[i + 7] == 'u' && IsHex4(text, i + 8) &&
          Hex4(text, i + 8) >= 0xDC00 && Hex4(text, i + 8) <= 0xDFFF) {
        out.append(text.substr(i, 12));  // a proper pair
        i += 11;
      } else if (high || low) {
        out += "\\uFFFD";
        ++count.lone_surrogates;
        i += 5;
      } else {
        out.append(text.substr(i, 6));
        i += 5;
      }
    } else if (c == '\\' && i + 1 < text.size()) {
      out += c;
      out += text[++i];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace evalsuite
