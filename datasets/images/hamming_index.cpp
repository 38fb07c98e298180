#include "datasets/images/hamming_index.h"

#include <bitset>

#include "evalsuite/common/error.h"

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
  if (radius_ <= kMaxIndexedRadius) tables_.resize(kChunks);
}

void HammingIndex::Add(uint64_t hash, uint32_t id) {
  const auto position = static_cast<uint32_t>(hashes_.size());
  hashes_.push_back(hash);
  ids_.push_back(id);
  for (size_t c = 0; c < tables_.size(); ++c) tables_[c][ChunkOf(hash, static_cast<int>(c))].push_back(position);
}

std::vector<HammingIndex::Hit> HammingIndex::Query(uint64_t hash) const {
  std::vector<Hit> hits;
  uint64_t compared = 0;
  auto compare = [&](uint32_t position) {
    ++compared;
    const int distance = Bits(hashes_[position] ^ hash);
    if (distance <= threshold_) hits.push_back({ids_[position], distance});
  };
  if (tables_.empty()) {
    for (uint32_t position = 0; position < hashes_.size(); ++position) compare(position);
  } else {
    for (int c = 0; c < kChunks; ++c) {
      const auto& table = tables_[static_cast<size_t>(c)];
      ForEachWithin(ChunkOf(hash, c), radius_, 0, [&](uint16_t value) {
        auto bucket = table.find(value);
        if (bucket == table.end()) return;
        for (uint32_t position : bucket->second) {
          // Counted by the first chunk within the radius only: an entry close in several chunks is one hit.
          bool earlier = false;
          for (int e = 0; e < c && !earlier; ++e) {
            earlier = Bits(static_cast<uint64_t>(ChunkOf(hashes_[position], e) ^ ChunkOf(hash, e))) <= radius_;
          }
          if (!earlier) compare(position);
        }
      });
    }
  }
  comparisons_ += compared;
  return hits;
}

}  // namespace evalsuite::datasets
