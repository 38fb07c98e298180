// Guards for JSON that comes from users' files, logs and responses: a nesting limit checked on the text before
// a tree is built (nlohmann's parser is iterative, but copying or walking a deep tree recurses and overflows the
// stack at about 200,000 levels), and UTF-8 repair for text that nlohmann's dump and the store would reject.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace evalsuite {

// Deeper than any real log, manifest or API response (MLPerf's deepest values nest 3 levels).
constexpr int kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text`, brackets inside strings not counted; counting stops
// once `stop_after` is reached. Works on any text, valid JSON or not.
int JsonNestingDepth(std::string_view text, int stop_after = kMaxJsonDepth + 1);

// Parses one JSON value. Throws InputError(where, ...) for a syntax error (with nlohmann's reason) or for
// nesting deeper than `max_depth` (checked before parsing). `where` names the file and line.
nlohmann::json ParseUserJson(std::string_view text, const std::string& where, int max_depth = kMaxJsonDepth);

// As ParseUserJson, without throwing: nullopt-like discarded value and the reason in `error`.
nlohmann::json TryParseUserJson(std::string_view text, std::string& error, int max_depth = kMaxJsonDepth);

bool IsValidUtf8(std::string_view text);
// `text` with every invalid UTF-8 sequence replaced by U+FFFD (as Python's errors="replace" does, one
// replacement per maximal invalid subpart); valid text comes back unchanged.
std::string ToValidUtf8(std::string_view text);

// What RepairJsonText changed.
struct JsonRepairs {
  int invalid_utf8 = 0;     // invalid byte sequences, now U+FFFD
  int lone_surrogates = 0;  // \uD83D without its pair (valid grammar, RFC 8259 section 8.2, but no character)
  int control_chars = 0;    // raw bytes below 0x20 inside strings, now \u00XX escapes
  int total() const { return invalid_utf8 + lone_surrogates + control_chars; }
};

// Text that real services send and strict parsers refuse, made parseable without changing anything else:
// invalid UTF-8 and lone surrogate escapes become U+FFFD (as browsers and Python's json module with
// errors="replace" read them), raw control characters in strings are escaped. Valid JSON comes back as is.
std::string RepairJsonText(std::string_view text, JsonRepairs* repairs = nullptr);

}  // namespace evalsuite
