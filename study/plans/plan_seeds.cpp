#include "study/plans/plan_seeds.h"

#include <unordered_set>
#include <utility>

namespace evalsuite::study {

uint64_t StableHash(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::vector<uint64_t> DeriveSeedPerRun(uint64_t base_seed, const std::vector<RunKey>& runs) {
  std::vector<uint64_t> seeds;
  seeds.reserve(runs.size());
  std::unordered_set<uint64_t> used;
  uint64_t study_stream = SplitMix64(base_seed).Next();
  for (const RunKey& run : runs) {
    uint64_t entry_stream = SplitMix64(study_stream ^ StableHash(run.entry)).Next();
    SplitMix64 stream(entry_stream + static_cast<uint64_t>(run.index) * 0xd1b54a32d192ed03ULL);
    uint64_t seed = stream.Next() & kDerivedSeedMask;
    while (!used.insert(seed).second) seed = stream.Next() & kDerivedSeedMask;
    seeds.push_back(seed);
  }
  return seeds;
}

}  // namespace evalsuite::study
