// The crawl's upload-date cutoff as users write it and as records show it: a date, a UTC time or Unix seconds in,
// ISO 8601 UTC out.
#pragma once

#include <cstdint>
#include <string>

namespace evalsuite::flickr {

// "2014-01-01" (UTC midnight), "2014-01-01T12:00:00Z" or Unix seconds. Throws UsageError naming `option`.
int64_t ParseCutoff(const std::string& text, const std::string& option = "--since");
std::string FormatUtc(int64_t unix_seconds);  // "2014-01-01T00:00:00Z"

}  // namespace evalsuite::flickr
