// Resolving a relative path from a request or a manifest to a file that is certainly inside a given folder:
// the one place that decides what the labeling server serves and what a freeze copies.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace evalsuite::labeling {

// `relative` (already URL-decoded) resolved below `root_canonical` to an existing regular file, following
// symlinks; nullopt when it is absolute, has "..", "." or empty segments, or ends up outside the root.
std::optional<std::filesystem::path> ResolveInside(const std::filesystem::path& root_canonical,
                                                   const std::string& relative);

// Percent-encodes everything but RFC 3986's unreserved characters (and '/' when `keep_slash`, for paths in
// URLs): the inverse of the decoding ResolveInside's callers do, for image URLs and query values.
std::string PercentEncode(const std::string& text, bool keep_slash);

}  // namespace evalsuite::labeling
