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

}  // namespace evalsuite::labeling
