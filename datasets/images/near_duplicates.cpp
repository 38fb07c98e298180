#include "datasets/images/near_duplicates.h"

#include <algorithm>
#include <atomic>
#include <bitset>
#include <cctype>
#include <map>
#include <opencv2/img_hash.hpp>
#include <thread>
#include <tuple>

#include "common/environment.h"
#include "common/error.h"
#include "datasets/images/hamming_index.h"
#include "datasets/images/image_decode.h"
#include "datasets/images/reference_hash_cache.h"

namespace evalsuite::datasets {
namespace fs = std::filesystem;

int HammingDistance(uint64_t a, uint64_t b) { return static_cast<int>(std::bitset<64>(a ^ b).count()); }

namespace {

std::optional<uint64_t> PHash(const cv::Mat& image, std::string* reason) {
  try {
    cv::Mat hash;
    cv::img_hash::PHash::create()->compute(image, hash);
    if (hash.total() != 8 || hash.type() != CV_8U) {  // OpenCV's contract broken: this image is skipped with why
      if (reason != nullptr) *reason = "PHash gave a hash of unexpected size";
      return std::nullopt;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | hash.at<uint8_t>(i);
    return bits;
  } catch (const cv::Exception& e) {
    if (reason != nullptr) *reason = "PHash failed: " + e.err;
    return std::nullopt;
  }
}

cv::Mat DecodeForHash(const fs::path& file, std::string* reason) {
  DecodeOptions options;
  options.to_rgb = false;  // PHash converts BGR to gray itself
  const DecodedImage decoded = DecodeImageFile(file, options);
  if (!decoded.ok()) {
    if (reason != nullptr) *reason = decoded.reason;
    return {};
  }
  return decoded.image;
}

}  // namespace

std::optional<uint64_t> PerceptualHashFile(const fs::path& file, std::string* reason) {
  const cv::Mat image = DecodeForHash(file, reason);
  if (image.empty()) return std::nullopt;
  return PHash(image, reason);
}

std::optional<ImageHashes> PerceptualHashesFile(const fs::path& file, std::string* reason) {
  const cv::Mat image = DecodeForHash(file, reason);
  if (image.empty()) return std::nullopt;
  const std::optional<uint64_t> plain = PHash(image, reason);
  if (!plain) return std::nullopt;
  cv::Mat flipped;
  cv::flip(image, flipped, 1);
  const std::optional<uint64_t> mirrored = PHash(flipped, reason);
  if (!mirrored) return std::nullopt;
  return ImageHashes{*plain, *mirrored};
}

int MirrorInvariantDistance(const ImageHashes& a, const ImageHashes& b, bool* mirrored) {
  const int straight = HammingDistance(a.phash, b.phash);
  const int flipped = std::min(HammingDistance(a.phash, b.mirrored), HammingDistance(a.mirrored, b.phash));
  if (mirrored != nullptr) *mirrored = flipped < straight;
  return std::min(straight, flipped);
}

namespace {

bool IsImageFile(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".webp";
}

// Hashes files[i] into hashes[i] / reasons[i] with a few threads sharing one counter; entries already set
// (from a cache) are skipped.
void HashAll(const std::vector<fs::path>& files, int threads, std::vector<std::optional<ImageHashes>>* hashes,
             std::vector<std::string>* reasons, const std::vector<bool>* known = nullptr) {
  hashes->resize(files.size());
  reasons->resize(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      if (known != nullptr && (*known)[i]) continue;
      (*hashes)[i] = PerceptualHashesFile(files[i], &(*reasons)[i]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
}

int64_t MtimeNs(const fs::path& file, std::error_code& ec) {
  const auto time = fs::last_write_time(file, ec);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

}  // namespace

std::vector<fs::path> ListImageFiles(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw IoError(folder.string(), "is not a folder");
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (it->is_regular_file(ec) && IsImageFile(it->path())) files.push_back(it->path());
  }
  if (ec) throw IoError(folder.string(), "cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<HashedFile> HashFolder(const fs::path& folder, int threads, std::vector<HashFailure>* failures,
                                   ReferenceHashCache* cache, HashFolderStats* stats) {
  const std::vector<fs::path> files = ListImageFiles(folder);
  std::vector<std::optional<ImageHashes>> hashes(files.size());
  std::vector<std::string> reasons(files.size());
  std::vector<bool> known(files.size(), false);
  std::vector<int64_t> sizes(files.size(), -1), mtimes(files.size(), -1);
  int64_t from_cache = 0;
  if (cache != nullptr) {
    for (size_t i = 0; i < files.size(); ++i) {
      std::error_code size_ec, time_ec;
      sizes[i] = static_cast<int64_t>(fs::file_size(files[i], size_ec));
      mtimes[i] = MtimeNs(files[i], time_ec);
      if (size_ec || time_ec) continue;
      const std::string key = fs::absolute(files[i]).lexically_normal().string();
      if (auto cached = cache->Find(key, sizes[i], mtimes[i])) {
        known[i] = true;
        ++from_cache;
        if (cached->failure.empty()) {
          hashes[i] = ImageHashes{cached->phash, cached->mirrored};
        } else {
          reasons[i] = cached->failure;
        }
      }
    }
  }
  HashAll(files, threads, &hashes, &reasons, &known);
  if (cache != nullptr) {
    cache->Begin();
    for (size_t i = 0; i < files.size(); ++i) {
      if (known[i] || sizes[i] < 0) continue;
      CachedHashes entry;
      if (hashes[i]) {
        entry.phash = hashes[i]->phash;
        entry.mirrored = hashes[i]->mirrored;
      } else {
        entry.failure = reasons[i].empty() ? "not hashed" : reasons[i];
      }
      cache->Store(fs::absolute(files[i]).lexically_normal().string(), sizes[i], mtimes[i], entry);
    }
    cache->Commit();
  }
  if (stats != nullptr) {
    stats->files += static_cast<int64_t>(files.size());
    stats->from_cache += from_cache;
  }
  std::vector<HashedFile> hashed;
  for (size_t i = 0; i < files.size(); ++i) {
    if (hashes[i]) {
      hashed.push_back({files[i].string(), hashes[i]->phash, hashes[i]->mirrored});
    } else if (failures != nullptr) {
      failures->push_back({files[i].string(), reasons[i]});
    }
  }
  return hashed;
}

DedupeSummary AnnotateNearDuplicates(CandidateManifest& manifest, const fs::path& manifest_dir,
                                     const DedupeOptions& options) {
  if (options.threshold < 0 || options.threshold > 64) {
    throw UsageError("--threshold", "must be between 0 and 64 (bits of a 64-bit hash)");
  }
  DedupeSummary summary;
  summary.candidates = static_cast<int>(manifest.items.size());
  std::vector<fs::path> files;
  for (const Candidate& item : manifest.items) files.push_back(manifest_dir / item.path);
  std::vector<std::optional<ImageHashes>> hashes;
  std::vector<std::string> reasons;
  HashAll(files, options.threads, &hashes, &reasons);
  for (size_t i = 0; i < files.size(); ++i) {
    if (hashes[i]) {
      ++summary.hashed;
    } else {
      summary.candidate_failures.push_back({manifest.items[i].path, reasons[i]});
    }
  }

  std::unique_ptr<ReferenceHashCache> cache;
  if (!options.reference_cache.empty() && !options.references.empty()) {
    cache = std::make_unique<ReferenceHashCache>(options.reference_cache);
  }
  std::vector<HashedFile> references;
  std::vector<std::string> reference_names;
  HashFolderStats folder_stats;
  for (const fs::path& folder : options.references) {
    std::vector<HashedFile> found =
        HashFolder(folder, options.threads, &summary.reference_failures, cache.get(), &folder_stats);
    references.insert(references.end(), found.begin(), found.end());
    reference_names.push_back(folder.string());
  }
  summary.references_hashed = static_cast<int>(references.size());
  summary.references_from_cache = folder_stats.from_cache;

  struct Match {
    int distance;
    size_t other;
    bool mirrored;
  };
  const size_t n = manifest.items.size();
  std::vector<std::vector<Match>> within(n), against(n);

  // References: each under its plain and its mirrored hash (ids 2r, 2r + 1); a candidate asks with its plain
  // hash, which finds straight copies through the first and mirrored copies through the second.
  HammingIndex reference_index(options.threshold);
  for (size_t r = 0; r < references.size(); ++r) {
    reference_index.Add(references[r].hash, static_cast<uint32_t>(2 * r));
    reference_index.Add(references[r].mirrored, static_cast<uint32_t>(2 * r + 1));
  }
  HammingIndex candidate_index(options.threshold);
  for (size_t i = 0; i < n; ++i) {
    if (!hashes[i]) continue;
    candidate_index.Add(hashes[i]->phash, static_cast<uint32_t>(2 * i));
    candidate_index.Add(hashes[i]->mirrored, static_cast<uint32_t>(2 * i + 1));
  }
  std::map<std::pair<size_t, size_t>, Match> pairs;  // (i < j) -> the closest way they match
  for (size_t i = 0; i < n; ++i) {
    if (!hashes[i]) continue;
    std::map<size_t, Match> best;  // reference -> closest
    for (const HammingIndex::Hit& hit : reference_index.Query(hashes[i]->phash)) {
      const size_t r = hit.id / 2;
      auto [it, fresh] = best.emplace(r, Match{hit.distance, r, hit.id % 2 == 1});
      if (!fresh && hit.distance < it->second.distance) it->second = {hit.distance, r, hit.id % 2 == 1};
    }
    for (const auto& [r, match] : best) against[i].push_back(match);
    for (const HammingIndex::Hit& hit : candidate_index.Query(hashes[i]->phash)) {
      const size_t j = hit.id / 2;
      if (j == i) continue;
      const auto key = std::make_pair(std::min(i, j), std::max(i, j));
      const Match match{hit.distance, 0, hit.id % 2 == 1};
      auto [it, fresh] = pairs.emplace(key, match);
      if (!fresh && match.distance < it->second.distance) it->second = match;
    }
  }
  for (const auto& [key, match] : pairs) {
    within[key.first].push_back({match.distance, key.second, match.mirrored});
    within[key.second].push_back({match.distance, key.first, match.mirrored});
  }
  summary.comparisons = static_cast<int64_t>(reference_index.comparisons() + candidate_index.comparisons());

  const size_t keep = static_cast<size_t>(std::max(1, options.max_matches_per_kind));
  auto closest_first = [keep](std::vector<Match>& matches) {
    std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
      return std::tie(a.distance, a.other) < std::tie(b.distance, b.other);
    });
    if (matches.size() > keep) matches.resize(keep);
  };
  for (size_t i = 0; i < n; ++i) {
    nlohmann::json flags = nlohmann::json::array();
    closest_first(within[i]);
    closest_first(against[i]);
    for (const Match& m : within[i]) {
      flags.push_back({{"kind", "within"},
                       {"signal", "phash"},
                       {"match", manifest.items[m.other].id},
                       {"path", manifest.items[m.other].path},
                       {"distance", m.distance},
                       {"mirrored", m.mirrored}});
    }
    for (const Match& m : against[i]) {
      flags.push_back({{"kind", "reference"},
                       {"signal", "phash"},
                       {"match", references[m.other].path},
                       {"distance", m.distance},
                       {"mirrored", m.mirrored}});
    }
    if (!within[i].empty()) ++summary.flagged_within;
    if (!against[i].empty()) ++summary.flagged_reference;
    manifest.items[i].near_duplicates = std::move(flags);
  }
  if (!manifest.source.is_object()) manifest.source = nlohmann::json::object();
  manifest.source["dedupe"] = {{"method",
                                "OpenCV img_hash PHash, 64 bits, Hamming distance, mirror-invariant "
                                "(each image also hashed flipped left-right), multi-index hash search"},
                               {"threshold", options.threshold},
                               {"references", reference_names},
                               {"references_hashed", summary.references_hashed},
                               {"references_from_cache", summary.references_from_cache},
                               {"flagged_within", summary.flagged_within},
                               {"flagged_reference", summary.flagged_reference},
                               {"unhashed_candidates", summary.candidate_failures.size()},
                               {"at", UtcNowIso8601()}};
  return summary;
}

}  // namespace evalsuite::datasets
