#include "common/json_guard.h"

#include <cctype>
#include <cstdint>
#include <cstring>

#include "common/error.h"

namespace evalsuite {
namespace {

// What a UTF-8 lead byte asks of the bytes after it (RFC 3629): the sequence's length (0: not the lead of a
// multi-byte sequence) and the range its second byte must lie in, which rules out overlongs, surrogates and
// anything above U+10FFFF; every later byte lies in 80..BF.
struct Utf8LeadRule {
  size_t length = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;
};

Utf8LeadRule Utf8LeadRuleOf(unsigned char b0) {
  Utf8LeadRule rule;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    rule.length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    rule.length = 3;
    if (b0 == 0xE0) rule.second_low = 0xA0;
    if (b0 == 0xED) rule.second_high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    rule.length = 4;
    if (b0 == 0xF0) rule.second_low = 0x90;
    if (b0 == 0xF4) rule.second_high = 0x8F;
  }
  return rule;
}

// How many bytes from the lead at text[i] on (the lead counted) follow its rule, at most rule.length.
size_t Utf8BytesFollowingRule(std::string_view text, size_t i, const Utf8LeadRule& rule) {
  size_t k = 1;
  for (; k < rule.length && i + k < text.size(); ++k) {
    const unsigned char b = static_cast<unsigned char>(text[i + k]);
    const unsigned char low = k == 1 ? rule.second_low : 0x80, high = k == 1 ? rule.second_high : 0xBF;
    if (b < low || b > high) break;
  }
  return k;
}

// Length of the valid UTF-8 sequence starting at text[i], or 0 when none starts there.
size_t ValidSequenceLength(std::string_view text, size_t i) {
  const unsigned char b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80) return 1;
  const Utf8LeadRule rule = Utf8LeadRuleOf(b0);
  if (rule.length == 0) return 0;
  return Utf8BytesFollowingRule(text, i, rule) == rule.length ? rule.length : 0;
}

// Where no valid sequence starts at text[i]: how many bytes one U+FFFD stands for. A lead byte followed by
// bytes that could still continue it is one broken sequence (Unicode's "maximal subpart", as Python's
// errors="replace" counts); any other byte stands alone.
size_t MaximalInvalidSubpart(std::string_view text, size_t i) {
  const Utf8LeadRule rule = Utf8LeadRuleOf(static_cast<unsigned char>(text[i]));
  if (rule.length == 0) return 1;
  return Utf8BytesFollowingRule(text, i, rule);
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
    // ASCII, 32 then eight bytes at a time: logs are almost all ASCII, so this is the loop that runs (the compiler
    // makes the four words one or two vector loads).
    while (i + 32 <= text.size()) {
      uint64_t words[4];
      std::memcpy(words, text.data() + i, 32);
      if (((words[0] | words[1] | words[2] | words[3]) & 0x8080808080808080ull) != 0) break;
      i += 32;
    }
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
