// Near-duplicate flags for holdout candidates: 64-bit perceptual hashes (OpenCV img_hash PHash: the signs of
// the 8x8 lowest DCT frequencies of a 32x32 grayscale image) compared by Hamming distance, within the
// candidates and against reference folders (the user's training set, ImageNet validation images). Every
// image is also hashed mirrored, so a left-right flipped copy is as close as the original. A pair at
// distance <= threshold is flagged on the candidate with the matched file and the distance; nothing is
// deleted or hidden: the labeling tool and the person decide. The search goes through a multi-index hash
// (hamming_index.h), not every pair, and reference hashes are cached between runs (reference_hash_cache.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "datasets/images/candidate_manifest.h"

namespace evalsuite::datasets {

// <= 8 of 64 bits. Re-encoding, resizing and mild colour changes move a PHash by 0-4 bits; small crops,
// borders and watermarks by up to ~8; unrelated photos sit near 32 (half the bits), and even similar scenes
// rarely come below 12. 8 flags the near-copies a labeler should see side by side while keeping false
// alarms rare; raise it to catch heavier edits, at the price of more look-alikes.
constexpr int kDefaultNearDuplicateThreshold = 8;

int HammingDistance(uint64_t a, uint64_t b);

// The PHash of an image file (decoded with image_decode.h, EXIF orientation applied), or nullopt with the
// reason ("truncated (...)", "missing file").
std::optional<uint64_t> PerceptualHashFile(const std::filesystem::path& file, std::string* reason);

// The PHash of the image and of its left-right mirror image.
struct ImageHashes {
  uint64_t phash = 0;
  uint64_t mirrored = 0;
};
std::optional<ImageHashes> PerceptualHashesFile(const std::filesystem::path& file, std::string* reason);
// The distance of two images when either may be the mirror image of the other.
int MirrorInvariantDistance(const ImageHashes& a, const ImageHashes& b, bool* mirrored = nullptr);

struct HashedFile {
  std::string path;  // as found: folder / relative path
  uint64_t hash = 0;
  uint64_t mirrored = 0;
};
struct HashFailure {
  std::string path;
  std::string reason;
};

class ReferenceHashCache;

// Every .jpg/.jpeg/.png/.webp (any case) under `folder`, recursively, in sorted path order. Throws IoError when
// `folder` is not a readable folder.
std::vector<std::filesystem::path> ListImageFiles(const std::filesystem::path& folder);

struct HashFolderStats {
  int64_t files = 0;
  int64_t from_cache = 0;  // hashes read back from the cache instead of decoding
};

// Every .jpg/.jpeg/.png/.webp (any case) under `folder`, recursively, hashed with `threads` threads; returned
// in sorted path order. Files that do not decode go to `failures`. With a cache, files whose size and mtime
// are unchanged are not decoded again. Throws IoError when `folder` is not a readable folder.
std::vector<HashedFile> HashFolder(const std::filesystem::path& folder, int threads, std::vector<HashFailure>* failures,
                                   ReferenceHashCache* cache = nullptr, HashFolderStats* stats = nullptr);

struct DedupeOptions {
  int threshold = kDefaultNearDuplicateThreshold;
  std::vector<std::filesystem::path> references;
  int threads = 2;
  int max_matches_per_kind = 10;  // closest first; a flat image can resemble thousands, the closest few suffice
  // Where reference hashes are kept between runs; empty: no cache.
  std::filesystem::path reference_cache;
};

struct DedupeSummary {
  int candidates = 0;
  int hashed = 0;
  int flagged_within = 0;     // candidates with at least one near-duplicate among the other candidates
  int flagged_reference = 0;  // candidates with at least one near-duplicate in a reference folder
  int references_hashed = 0;
  int64_t references_from_cache = 0;  // of references_hashed, read from the cache
  int64_t comparisons = 0;            // hash pairs compared (a full scan: candidates x (candidates + references))
  std::vector<HashFailure> candidate_failures;
  std::vector<HashFailure> reference_failures;
};

// Replaces every item's near_duplicates with the matches found now:
//   {"kind": "within", "match": "<other candidate id>", "path": "<its path>", "distance": 3, "mirrored": false}
//   {"kind": "reference", "match": "<reference file>", "distance": 0, "mirrored": true}
// and records the method, threshold and references in manifest.source["dedupe"]. `manifest_dir` is where
// the items' relative paths start.
DedupeSummary AnnotateNearDuplicates(CandidateManifest& manifest, const std::filesystem::path& manifest_dir,
                                     const DedupeOptions& options);

}  // namespace evalsuite::datasets
