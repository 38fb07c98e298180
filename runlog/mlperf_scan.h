// The MLPerf log's byte scanner: finds marker lines 16 bytes at a time (SSE2), and reads the few fields a score
// needs (time_ms, value, epoch_num, status, ...) of an MLLOG record without building a JSON document, leaving
// anything unusual to the full parser (Scan::kComplex). Header-only so that the parser's loop inlines it: the import
// spends most of its time here. The record parser that uses it is mlperf_log.cpp.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace evalsuite::runlog::mlperf_scan {

using json = nlohmann::json;

// Every format's marker starts with this; the byte after it tells them apart.
inline constexpr char kMarkerPrefix[] = ":::ML";
inline constexpr std::size_t kMarkerPrefixLength = sizeof(kMarkerPrefix) - 1;

// The first ":::" in [begin, end). glibc's memmem spends most of an import's time on a 5-byte needle; three
// colons in a row occur only in markers, and SSE2 (baseline on x86-64) finds them 16 bytes at a time.
inline const char* FindTripleColon(const char* begin, const char* end) {
  const char* p = begin;
#if defined(__SSE2__)
  const __m128i colon = _mm_set1_epi8(':');
  uint32_t carry = 0;  // bit 0: byte p-2 is ':', bit 1: byte p-1 is ':'
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto mask = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, colon)));
    const uint32_t window = (mask << 2) | carry;  // bit k: byte p-2+k is ':'
    const uint32_t triple = window & (window >> 1) & (window >> 2);
    if (triple != 0) return p - 2 + __builtin_ctz(triple);
    carry = (window >> 16) & 3u;
    p += 16;
  }
  p = p - begin >= 2 ? p - 2 : begin;  // a run of colons may straddle into the tail

#endif
  if (end - p < 3) return nullptr;
  return static_cast<const char*>(memmem(p, static_cast<std::size_t>(end - p), ":::", 3));
}

// The first marker prefix ":::ML" in [begin, end).
inline const char* FindMarker(const char* begin, const char* end) {
  const char* p = begin;
  for (;;) {
    const char* colons = FindTripleColon(p, end);
    if (colons == nullptr || end - colons < static_cast<std::ptrdiff_t>(kMarkerPrefixLength)) return nullptr;
    if (colons[3] == 'M' && colons[4] == 'L') return colons;
    p = colons + 1;  // "::::MLLOG": the marker starts one colon later
  }
}

// Calls on_line(marker, eol) for each line holding a marker, with the line's last marker (records glued on one
// line by interleaved ranks: the last one counts, as in the RCP checker). One pass finds colons and newlines
// together, 16 bytes at a time, so each byte of a log is looked at once.
template <typename OnLine>
void ForEachMarkerLine(const char* begin, const char* end, OnLine on_line) {
  const char* line_marker = nullptr;
  auto triple_at = [&](const char* c) {
    if (end - c >= static_cast<std::ptrdiff_t>(kMarkerPrefixLength) && c[3] == 'M' && c[4] == 'L') line_marker = c;
  };
  auto newline_at = [&](const char* nl) {
    if (line_marker != nullptr) on_line(line_marker, nl);
    line_marker = nullptr;
  };
  const char* p = begin;
  int colon_run = 0;  // colons right before p (capped at 2), for the scalar tail
#if defined(__SSE2__)
  const __m128i colon = _mm_set1_epi8(':');
  const __m128i newline = _mm_set1_epi8('\n');
  uint32_t carry = 0;  // bit 0: byte p-2 is ':', bit 1: byte p-1 is ':'
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto colons = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, colon)));
    uint32_t newlines = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, newline)));
    const uint32_t window = (colons << 2) | carry;              // bit k: byte p-2+k is ':'
    uint32_t triples = window & (window >> 1) & (window >> 2);  // bit k: ":::" starts at p-2+k
    carry = (window >> 16) & 3u;
    // Events in position order; a triple and a newline never share a byte.
    while ((triples | newlines) != 0) {
      const int t = triples != 0 ? __builtin_ctz(triples) - 2 : 64;
      const int n = newlines != 0 ? __builtin_ctz(newlines) : 64;
      if (t < n) {
        triple_at(p + t);
        triples &= triples - 1;
      } else {
        newline_at(p + n);
        newlines &= newlines - 1;
      }
    }
    p += 16;
  }
  colon_run = (carry & 2u) ? ((carry & 1u) ? 2 : 1) : 0;
#endif
  for (; p < end; ++p) {
    if (*p == ':') {
      if (colon_run >= 2) triple_at(p - 2);
      colon_run = colon_run < 2 ? colon_run + 1 : 2;
    } else {
      colon_run = 0;
      if (*p == '\n') newline_at(p);
    }
  }
  newline_at(end);  // a last line without a newline
}

// The "key" field of an MLLOG record: mllog writes it after namespace, time_ms and event_type, none of which
// holds a 'k', so memchr for 'k' lands on it at once.
inline const char* FindKeyField(const char* begin, const char* end) {
  const char* p = begin;
  while (p < end) {
    const char* k = static_cast<const char*>(std::memchr(p, 'k', static_cast<std::size_t>(end - p)));
    if (k == nullptr) return nullptr;
    if (k > begin && k[-1] == '"' && end - k >= 4 && k[1] == 'e' && k[2] == 'y' && k[3] == '"') return k - 1;
    p = k + 1;
  }
  return nullptr;
}

inline bool StartsWith(const char* p, const char* end, std::string_view prefix) {
  return static_cast<std::size_t>(end - p) >= prefix.size() && std::memcmp(p, prefix.data(), prefix.size()) == 0;
}

inline const char* SkipSpaces(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  return p;
}

inline const char* TrimRight(const char* begin, const char* end) {
  while (end > begin && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) --end;
  return end;
}

inline std::optional<double> ParseDouble(const char* begin, const char* end) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The closing quote of a JSON string whose text starts at `c` (after its opening quote), or `end` when the string is
// not closed before it; a backslash escapes the byte after it. Most of a record's bytes are in strings (file paths,
// names), so this looks at 16 bytes at a time for the two bytes that matter.
inline const char* StringEnd(const char* c, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  while (end - c >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
    const auto hits = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash))));
    if (hits == 0) {
      c += 16;
      continue;
    }
    c += __builtin_ctz(hits);
    if (*c == '"') return c;
    c += 2;  // the backslash and the byte it escapes
  }
#endif
  for (; c < end; ++c) {
    if (*c == '"') return c;
    if (*c == '\\') ++c;
  }
  return end;
}

// A record the fast scanner reads (kOk), rejects (kMalformed) or leaves to the full JSON parser (kComplex).
enum class Scan { kOk, kMalformed, kComplex };

// One JSON object from `p` to `end`: it opens and closes there, quotes are closed, braces and brackets balance
// outside strings. Catches cut and glued lines without building a document.
inline bool BalancedObject(const char* p, const char* end) {
  if (p >= end || *p != '{' || end[-1] != '}') return false;
  int depth = 0;
  for (const char* c = p; c < end; ++c) {
    switch (*c) {
      case '"':
        c = StringEnd(c + 1, end);
        if (c >= end) return false;
        break;
      case '{':
      case '[':
        ++depth;
        break;
      case '}':
      case ']':
        if (--depth < 0 || (depth == 0 && c != end - 1)) return false;
        break;
      default:
        break;
    }
  }
  return depth == 0;
}

// At `c`, outside strings in the record that starts at `p`: past the word there if Python's json module reads it
// (true, false, null, NaN, Infinity, or a number's exponent as in 1e-06), else nullptr (also when no letter is there).
inline const char* SkipPlausibleWord(const char* p, const char* c, const char* end) {
  const char* w = c;
  while (c < end && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) ++c;
  const std::string_view word(w, static_cast<std::size_t>(c - w));
  if (word == "true" || word == "false" || word == "null" || word == "NaN" || word == "Infinity") return c;
  if ((word == "e" || word == "E") && w > p && w[-1] >= '0' && w[-1] <= '9') return c;
  return nullptr;
}

// The tokens of [p, end) outside strings are JSON's as Python's json module reads them: punctuation, numbers,
// true, false, null, NaN, Infinity. With BalancedObject, this catches what corrupts real logs (a value cut and
// glued to other output, as `"value": nullLambdaorkspace`) at a fraction of a full parse; NaN and Infinity, which
// the official parser accepts, pass.
inline bool PlausibleJsonTokens(const char* p, const char* end) {
  for (const char* c = p; c < end;) {
    const char ch = *c;
    if (ch == '"') {
      c = StringEnd(c + 1, end) + 1;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '{' || ch == '}' || ch == '[' || ch == ']' || ch == ',' || ch == ':' ||
        ch == '-' || ch == '+' || ch == '.' || (ch >= '0' && ch <= '9')) {
      ++c;
      continue;
    }
    c = SkipPlausibleWord(p, c, end);
    if (c == nullptr) return false;
  }
  return true;
}

// The first `quoted_name` ('"', at least one byte, '"') in [from, end), or nullptr. A record holds a quote every few
// bytes: comparing the name at each (std::string_view::find) was the import's largest cost after the scan itself, so
// the quote and the name's first byte are looked for together, 16 positions at a time.
inline const char* FindQuotedName(const char* from, const char* end, std::string_view quoted_name) {
  const std::size_t n = quoted_name.size();
  const char* c = from;
  auto matches = [&](const char* at) { return std::memcmp(at + 2, quoted_name.data() + 2, n - 2) == 0; };
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i first = _mm_set1_epi8(quoted_name[1]);
  // Blocks of 16 candidate positions whose whole name lies before `end`.
  while (end - c >= static_cast<std::ptrdiff_t>(n + 15)) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
    const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 1));
    auto hits = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(here, quote), _mm_cmpeq_epi8(next, first))));
    while (hits != 0) {
      const char* at = c + __builtin_ctz(hits);
      if (matches(at)) return at;
      hits &= hits - 1;
    }
    c += 16;
  }
#endif
  for (; end - c >= static_cast<std::ptrdiff_t>(n); ++c) {
    if (c[0] == '"' && c[1] == quoted_name[1] && matches(c)) return c;
  }
  return nullptr;
}

// BalancedObject and PlausibleJsonTokens in one pass: what a record the parser does not read needs (the official
// parser drops a run for a record it cannot read), at the cost of one walk over the record instead of two.
inline bool PlausibleJsonObject(const char* p, const char* end) {
  if (p >= end || *p != '{' || end[-1] != '}') return false;
  int depth = 0;
  for (const char* c = p; c < end;) {
    const char ch = *c;
    switch (ch) {
      case '"':
        c = StringEnd(c + 1, end);
        if (c >= end) return false;
        ++c;
        continue;
      case '{':
      case '[':
        ++depth;
        ++c;
        continue;
      case '}':
      case ']':
        if (--depth < 0 || (depth == 0 && c != end - 1)) return false;
        ++c;
        continue;
      case ' ':
      case '\t':
      case ',':
      case ':':
      case '-':
      case '+':
      case '.':
        ++c;
        continue;
      default:
        break;
    }
    if (ch >= '0' && ch <= '9') {
      ++c;
      continue;
    }
    c = SkipPlausibleWord(p, c, end);
    if (c == nullptr) return false;
  }
  return depth == 0;
}

// After `"name"` in [from, end): the start of its value, or nullptr.
inline const char* FieldValue(const char* from, const char* end, std::string_view quoted_name) {
  for (const char* at = FindQuotedName(from, end, quoted_name); at != nullptr;
       at = FindQuotedName(at + 1, end, quoted_name)) {
    const char* c = SkipSpaces(at + quoted_name.size(), end);
    if (c < end && *c == ':') return SkipSpaces(c + 1, end);
  }
  return nullptr;
}

// A string without escapes, a number, true, false or null at `v`; `v` moves past it. Objects, arrays and
// escaped strings are kComplex.
inline Scan ScanScalar(const char*& v, const char* end, json& out) {
  if (v >= end) return Scan::kMalformed;
  const char c = *v;
  if (c == '"') {
    const char* close = static_cast<const char*>(std::memchr(v + 1, '"', static_cast<std::size_t>(end - v - 1)));
    if (close == nullptr) return Scan::kMalformed;
    if (std::memchr(v + 1, '\\', static_cast<std::size_t>(close - v - 1)) != nullptr) return Scan::kComplex;
    out = std::string(v + 1, close);
    v = close + 1;
    return Scan::kOk;
  }
  if (c == '{' || c == '[') return Scan::kComplex;
  auto word = [&](std::string_view w, json value) {
    if (static_cast<std::size_t>(end - v) < w.size() || std::memcmp(v, w.data(), w.size()) != 0) return false;
    out = std::move(value);
    v += w.size();
    return true;
  };
  if (c == 'n') return word("null", json()) ? Scan::kOk : Scan::kMalformed;
  if (c == 't') return word("true", json(true)) ? Scan::kOk : Scan::kMalformed;
  if (c == 'f') return word("false", json(false)) ? Scan::kOk : Scan::kMalformed;
  if (c != '-' && (c < '0' || c > '9')) return Scan::kMalformed;
  const char* e = v + 1;
  bool integral = true;
  while (e < end && ((*e >= '0' && *e <= '9') || *e == '.' || *e == 'e' || *e == 'E' || *e == '+' || *e == '-')) {
    if (*e == '.' || *e == 'e' || *e == 'E') integral = false;
    ++e;
  }
  if (integral) {
    int64_t i = 0;
    auto [ptr, ec] = std::from_chars(v, e, i);
    if (ec == std::errc() && ptr == e) {
      out = i;
      v = e;
      return Scan::kOk;
    }
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(v, e, d);
  if (ec != std::errc() || ptr != e) return Scan::kMalformed;
  out = d;
  v = e;
  return Scan::kOk;
}

// A value must be followed by ',' or the closing brace.
inline bool EndsValue(const char* v, const char* end) {
  v = SkipSpaces(v, end);
  return v < end && (*v == ',' || *v == '}');
}

// time_ms, value and metadata's epoch_num and status of an MLLOG record in mllog's key order (namespace, time_ms,
// event_type, key, value, metadata); anything else goes to the full parser.
inline Scan ScanMllogFields(const char* record, const char* key_end, const char* end, double& time_ms, json& value,
                            json& metadata) {
  const char* t = FieldValue(record, key_end, "\"time_ms\"");
  if (t == nullptr) return Scan::kComplex;
  json time;
  Scan scan = ScanScalar(t, end, time);
  if (scan != Scan::kOk) return scan;
  if (!time.is_number() || !EndsValue(t, end)) return Scan::kMalformed;
  time_ms = time.get<double>();
  const char* v = FieldValue(key_end, end, "\"value\"");
  if (v == nullptr) return Scan::kComplex;
  scan = ScanScalar(v, end, value);
  if (scan != Scan::kOk) return scan;
  if (!EndsValue(v, end)) return Scan::kMalformed;
  const char* m = FieldValue(v, end, "\"metadata\"");
  if (m == nullptr) return Scan::kComplex;
  if (*m != '{') return Scan::kComplex;
  if (const char* epoch = FieldValue(m, end, "\"epoch_num\"")) {
    json e;
    scan = ScanScalar(epoch, end, e);
    if (scan != Scan::kOk) return scan;
    if (!EndsValue(epoch, end)) return Scan::kMalformed;
    metadata["epoch_num"] = std::move(e);
  }
  static constexpr std::string_view kQuotedNames[] = {"\"status\"", "\"samples_count\"", "\"step_num\"", "\"metric\"",
                                                      "\"tensor\""};
  for (const std::string_view quoted : kQuotedNames) {
    if (const char* field = FieldValue(m, end, quoted)) {
      json x;
      scan = ScanScalar(field, end, x);
      if (scan != Scan::kOk) return scan;
      if (!EndsValue(field, end)) return Scan::kMalformed;
      metadata[std::string(quoted.substr(1, quoted.size() - 2))] = std::move(x);
    }
  }
  return Scan::kOk;
}

}  // namespace evalsuite::runlog::mlperf_scan
