// A cheap scan of TOML text before toml++ parses it: toml++ recurses once per part of a dotted key or table
// header and per level of nested arrays and inline tables, so a 100,000-part key overflows the stack. Study
// files nest two or three levels; anything deeper than kMaxTomlDepth is refused with its line.
#pragma once

#include <string>
#include <string_view>

namespace evalsuite::study {

constexpr int kMaxTomlDepth = 64;

// Throws InputError("file:line", ...) at the first key, header or value nested deeper than kMaxTomlDepth.
void CheckTomlDepth(std::string_view text, const std::string& source_name);

}  // namespace evalsuite::study
