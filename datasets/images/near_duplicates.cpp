#include "datasets/images/near_duplicates.h"

#include <algorithm>
#include <atomic>
#include <bitset>
#include <cctype>
#include <opencv2/img_hash.hpp>
#include <thread>
#include <tuple>

#include "datasets/images/image_decode.h"
#include "evalsuite/common/environment.h"
#include "evalsuite/common/error.h"

namespace evalsuite::datasets {
namespace fs = std::filesystem;

int HammingDistance(uint64_t a, uint64_t b) { return static_cast<int>(std::bitset<64>(a ^ b).count()); }

std::optional<uint64_t> PerceptualHashFile(const fs::path& file, std::string* reason) {
  DecodeOptions options;
  options.to_rgb = false;  // PHash converts BGR to gray itself
  const DecodedImage decoded = DecodeImageFile(file, options);
  if (!decoded.ok()) {
    if (reason != nullptr) *reason = decoded.reason;
    return std::nullopt;
  }
  try {
    cv::Mat hash;
    cv::img_hash::PHash::create()->compute(decoded.image, hash);
    if (hash.total() != 8 || hash.type() != CV_8U) throw std::runtime_error("unexpected PHash size");
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | hash.at<uint8_t>(i);
    return bits;
  } catch (const cv::Exception& e) {
    if (reason != nullptr) *reason = "PHash failed: " + e.err;
    return std::nullopt;
  }
}

namespace {

bool IsImageFile(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".webp";
}

// Hashes files[i] into hashes[i] / reasons[i] with a few threads sharing one counter.
void HashAll(const std::vector<fs::path>& files, int threads, std::vector<std::optional<uint64_t>>* hashes,
             std::vector<std::string>* reasons) {
  hashes->assign(files.size(), std::nullopt);
  reasons->assign(files.size(), "");
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) (*hashes)[i] = PerceptualHashFile(files[i], &(*reasons)[i]);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
}

}  // namespace

std::vector<HashedFile> HashFolder(const fs::path& folder, int threads, std::vector<HashFailure>* failures) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw IoError(folder.string(), "is not a folder");
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (it->is_regular_file(ec) && IsImageFile(it->path())) files.push_back(it->path());
  }
  if (ec) throw IoError(folder.string(), "cannot list: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<std::optional<uint64_t>> hashes;
  std::vector<std::string> reasons;
  HashAll(files, threads, &hashes, &reasons);
  std::vector<HashedFile> hashed;
  for (size_t i = 0; i < files.size(); ++i) {
    if (hashes[i]) {
      hashed.push_back({files[i].string(), *hashes[i]});
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
  std::vector<std::optional<uint64_t>> hashes;
  std::vector<std::string> reasons;
  HashAll(files, options.threads, &hashes, &reasons);
  for (size_t i = 0; i < files.size(); ++i) {
    if (hashes[i]) {
      ++summary.hashed;
    } else {
      summary.candidate_failures.push_back({manifest.items[i].path, reasons[i]});
    }
  }

  std::vector<HashedFile> references;
  std::vector<std::string> reference_names;
  for (const fs::path& folder : options.references) {
    std::vector<HashedFile> found = HashFolder(folder, options.threads, &summary.reference_failures);
    references.insert(references.end(), found.begin(), found.end());
    reference_names.push_back(folder.string());
  }
  summary.references_hashed = static_cast<int>(references.size());

  struct Match {
    int distance;
    size_t other;
  };
  const size_t n = manifest.items.size();
  std::vector<std::vector<Match>> within(n), against(n);
  for (size_t i = 0; i < n; ++i) {
    if (!hashes[i]) continue;
    for (size_t j = i + 1; j < n; ++j) {
      if (!hashes[j]) continue;
      const int d = HammingDistance(*hashes[i], *hashes[j]);
      if (d <= options.threshold) {
        within[i].push_back({d, j});
        within[j].push_back({d, i});
      }
    }
    for (size_t r = 0; r < references.size(); ++r) {
      const int d = HammingDistance(*hashes[i], references[r].hash);
      if (d <= options.threshold) against[i].push_back({d, r});
    }
  }

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
                       {"match", manifest.items[m.other].id},
                       {"path", manifest.items[m.other].path},
                       {"distance", m.distance}});
    }
    for (const Match& m : against[i]) {
      flags.push_back({{"kind", "reference"}, {"match", references[m.other].path}, {"distance", m.distance}});
    }
    if (!within[i].empty()) ++summary.flagged_within;
    if (!against[i].empty()) ++summary.flagged_reference;
    manifest.items[i].near_duplicates = std::move(flags);
  }
  if (!manifest.source.is_object()) manifest.source = nlohmann::json::object();
  manifest.source["dedupe"] = {{"method", "OpenCV img_hash PHash, 64 bits, Hamming distance"},
                               {"threshold", options.threshold},
                               {"references", reference_names},
                               {"references_hashed", summary.references_hashed},
                               {"flagged_within", summary.flagged_within},
                               {"flagged_reference", summary.flagged_reference},
                               {"unhashed_candidates", summary.candidate_failures.size()},
                               {"at", UtcNowIso8601()}};
  return summary;
}

}  // namespace evalsuite::datasets
