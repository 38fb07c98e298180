// Nearest neighbours of 64-bit hashes under Hamming distance without comparing every pair: multi-index
// hashing (Norouzi, Punjani and Fleet, "Fast search in Hamming space with multi-index hashing", CVPR 2012).
// The 64 bits are cut into 4 chunks of 16; two hashes within t bits differ by at most floor(t / 4) bits in at
// least one chunk (pigeonhole), so a query probes, in each chunk's table, every value within that radius of
// its own chunk, and compares only the entries found. Exact: every entry within the threshold, nothing else.
// Past a threshold of 19 (a radius of 5 would probe thousands of values per chunk, and such thresholds flag
// unrelated images anyway) it scans every entry.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace evalsuite::datasets {

class HammingIndex {
 public:
  // `threshold`: the largest distance queries ask for, 0..64.
  explicit HammingIndex(int threshold);

  // Adds `hash` under the caller's `id` (an index into the caller's own list).
  void Add(uint64_t hash, uint32_t id);

  struct Hit {
    uint32_t id;
    int distance;
  };
  // Every entry within the index's threshold of `hash`, each once, in no particular order. Thread-safe
  // against other queries (not against Add).
  std::vector<Hit> Query(uint64_t hash) const;

  size_t size() const { return hashes_.size(); }
  // Entries compared by the queries so far (against size() x queries for a full scan).
  uint64_t comparisons() const { return comparisons_; }

 private:
  static constexpr int kChunks = 4;
  static constexpr int kMaxIndexedRadius = 4;

  int threshold_;
  int radius_;  // per chunk; > kMaxIndexedRadius: full scan
  std::vector<std::unordered_map<uint16_t, std::vector<uint32_t>>> tables_;  // per chunk: value -> positions
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> ids_;
  mutable std::atomic<uint64_t> comparisons_{0};
};

}  // namespace evalsuite::datasets
