#include "labeling/safe_path.h"

#include <algorithm>
#include <cctype>

namespace evalsuite::labeling {
namespace fs = std::filesystem;

std::optional<fs::path> ResolveInside(const fs::path& root_canonical, const std::string& relative) {
  if (relative.empty() || relative.front() == '/' || relative.find('\\') != std::string::npos ||
      relative.find('\0') != std::string::npos) {
    return std::nullopt;
  }
  // Syntactic check first, so nothing outside the root is even looked at.
  std::size_t start = 0;
  while (start <= relative.size()) {
    const std::size_t end = std::min(relative.find('/', start), relative.size());
    const std::string segment = relative.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..") return std::nullopt;
    start = end + 1;
  }
  std::error_code error;
  const fs::path resolved = fs::canonical(root_canonical / relative, error);  // follows every symlink
  if (error || !fs::is_regular_file(resolved, error)) return std::nullopt;
  // Component-wise prefix test: /data/cands2 is not inside /data/cands.
  auto it = resolved.begin();
  for (auto root_it = root_canonical.begin(); root_it != root_canonical.end(); ++root_it, ++it) {
    if (it == resolved.end() || *it != *root_it) return std::nullopt;
  }
  return resolved;
}

std::string PercentEncode(const std::string& text, bool keep_slash) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace evalsuite::labeling
