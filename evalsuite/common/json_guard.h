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

}  // namespace evalsuite
