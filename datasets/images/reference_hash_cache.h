// The hashes of a reference set (ImageNet's 50,000 validation images, a training set) kept between runs in a
// SQLite file: a file is hashed again only when its size or modification time changed, so a second dedupe
// against the same folder reads hashes instead of decoding 50,000 images.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace evalsuite::datasets {

struct CachedHashes {
  uint64_t phash = 0;
  uint64_t mirrored = 0;
  std::string failure;  // non-empty: the file did not decode, and why
};

class ReferenceHashCache {
 public:
  // Opens or creates `file`. Throws IoError naming it.
  explicit ReferenceHashCache(const std::filesystem::path& file);
  ~ReferenceHashCache();
  ReferenceHashCache(const ReferenceHashCache&) = delete;
  ReferenceHashCache& operator=(const ReferenceHashCache&) = delete;

  // The stored hashes of `path` when its size and mtime are still those stored.
  std::optional<CachedHashes> Find(const std::string& path, int64_t size, int64_t mtime_ns);
  void Store(const std::string& path, int64_t size, int64_t mtime_ns, const CachedHashes& hashes);
  void Begin();  // batch many Store calls in one transaction
  void Commit();

 private:
  std::string file_;
  void* db_ = nullptr;  // sqlite3*
};

}  // namespace evalsuite::datasets
