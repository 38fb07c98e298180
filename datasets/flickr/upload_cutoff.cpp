#include "datasets/flickr/upload_cutoff.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "common/error.h"

namespace evalsuite::flickr {

int64_t ParseCutoff(const std::string& text, const std::string& option) {
  if (!text.empty() && text.size() <= 12 &&
      std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return std::stoll(text);
  }
  for (const char* format : {"%Y-%m-%d", "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d %H:%M:%S"}) {
    std::tm tm{};
    const char* end = strptime(text.c_str(), format, &tm);
    if (end != nullptr && *end == '\0') return static_cast<int64_t>(timegm(&tm));
  }
  throw UsageError(option, "'" + text + "' is not a date: use 2014-01-01, 2014-01-01T00:00:00Z or Unix seconds");
}

std::string FormatUtc(int64_t unix_seconds) {
  const std::time_t time = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&time, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace evalsuite::flickr
