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
#include <mutex>
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
  // against other queries (not against Add). The first query after an Add lays the tables out.
  std::vector<Hit> Query(uint64_t hash) const;

  size_t size() const { return hashes_.size(); }
  // Entries compared by the queries so far (against size() x queries for a full scan).
  uint64_t comparisons() const { return comparisons_; }

 private:
  static constexpr int kChunks = 4;
  static constexpr int kMaxIndexedRadius = 4;

  // One chunk's table in compressed-row form: the entries whose chunk value is v are entries
  // [offsets[v], offsets[v + 1]), each with its whole hash beside its position. Why not a map of vectors: a query
  // probes hundreds of values at random, and with 100,000 entries the probes' cache misses are the whole cost
  // (a hash map of vectors was no faster than scanning every entry); here the offsets of a chunk (256 KB) stay in
  // cache and a bucket's hashes are read in one contiguous run.
  struct Table {
    std::vector<uint32_t> offsets;  // 65,537
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> positions;
  };
  void LayOut() const;

  int threshold_;
  int radius_;  // per chunk; > kMaxIndexedRadius: full scan
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> ids_;
  mutable std::vector<Table> tables_;  // empty until laid out, or for a full scan
  mutable std::atomic<bool> laid_out_{true};
  mutable std::mutex lay_out_mutex_;
  mutable std::atomic<uint64_t> comparisons_{0};
};

}  // namespace evalsuite::datasets
