#include "datasets/images/hamming_index.h"

#include <bitset>

#include "common/error.h"

namespace evalsuite::datasets {
namespace {

uint16_t ChunkOf(uint64_t hash, int chunk) { return static_cast<uint16_t>(hash >> (16 * chunk)); }

int Bits(uint64_t x) { return static_cast<int>(std::bitset<64>(x).count()); }

// Calls visit(value) for every 16-bit value within `radius` bits of `center`.
template <typename Visit>
void ForEachWithin(uint16_t center, int radius, int from_bit, Visit&& visit) {
  visit(center);
  if (radius == 0) return;
  for (int bit = from_bit; bit < 16; ++bit) {
    ForEachWithin(static_cast<uint16_t>(center ^ (1u << bit)), radius - 1, bit + 1, visit);
  }
}

}  // namespace

HammingIndex::HammingIndex(int threshold) : threshold_(threshold), radius_(threshold / kChunks) {
  if (threshold < 0 || threshold > 64) throw UsageError("--threshold", "must be between 0 and 64");
}

void HammingIndex::Add(uint64_t hash, uint32_t id) {
  hashes_.push_back(hash);
  ids_.push_back(id);
  laid_out_.store(false, std::memory_order_release);
}

void HammingIndex::LayOut() const {
  std::lock_guard<std::mutex> lock(lay_out_mutex_);
  if (laid_out_.load(std::memory_order_acquire)) return;
  tables_.clear();
  if (radius_ <= kMaxIndexedRadius) {
    tables_.resize(kChunks);
    for (int c = 0; c < kChunks; ++c) {
      Table& table = tables_[static_cast<size_t>(c)];
      table.offsets.assign((size_t{1} << 16) + 1, 0);
      for (uint64_t hash : hashes_) ++table.offsets[size_t{ChunkOf(hash, c)} + 1];
      for (size_t v = 1; v < table.offsets.size(); ++v) table.offsets[v] += table.offsets[v - 1];
      table.hashes.resize(hashes_.size());
      table.positions.resize(hashes_.size());
      std::vector<uint32_t> next(table.offsets.begin(), table.offsets.end() - 1);
      for (uint32_t position = 0; position < hashes_.size(); ++position) {
        const uint32_t slot = next[ChunkOf(hashes_[position], c)]++;
        table.hashes[slot] = hashes_[position];
        table.positions[slot] = position;
      }
    }
  }
  laid_out_.store(true, std::memory_order_release);
}

std::vector<HammingIndex::Hit> HammingIndex::Query(uint64_t hash) const {
  if (!laid_out_.load(std::memory_order_acquire)) LayOut();
  std::vector<Hit> hits;
  uint64_t compared = 0;
  if (tables_.empty()) {
    for (uint32_t position = 0; position < hashes_.size(); ++position) {
      ++compared;
      const int distance = Bits(hashes_[position] ^ hash);
      if (distance <= threshold_) hits.push_back({ids_[position], distance});
    }
  } else {
    // In three passes per chunk so that the memory reads of one pass are independent of each other and the
    // processor overlaps their cache misses (one probe after another would wait for each miss in turn; that
    // latency was the whole cost): the values to probe, their bucket bounds, then the buckets' hashes.
    std::vector<uint16_t> values;
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    for (int c = 0; c < kChunks; ++c) {
      const Table& table = tables_[static_cast<size_t>(c)];
      values.clear();
      ForEachWithin(ChunkOf(hash, c), radius_, 0, [&](uint16_t value) { values.push_back(value); });
      ranges.clear();
      for (uint16_t value : values) {
        const uint32_t begin = table.offsets[value], end = table.offsets[size_t{value} + 1];
        if (begin == end) continue;
        __builtin_prefetch(&table.hashes[begin]);
        ranges.emplace_back(begin, end);
      }
      for (const auto& [begin, end] : ranges) {
        for (uint32_t slot = begin; slot < end; ++slot) {
          const uint64_t other = table.hashes[slot];
          // Counted by the first chunk within the radius only: an entry close in several chunks is one hit.
          bool earlier = false;
          for (int e = 0; e < c && !earlier; ++e) {
            earlier = Bits(static_cast<uint64_t>(ChunkOf(other, e) ^ ChunkOf(hash, e))) <= radius_;
          }
          if (earlier) continue;
          ++compared;
          const int distance = Bits(other ^ hash);
          if (distance <= threshold_) hits.push_back({ids_[table.positions[slot]], distance});
        }
      }
    }
  }
  comparisons_ += compared;
  return hits;
}

}  // namespace evalsuite::datasets
