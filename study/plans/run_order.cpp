#include "study/plans/run_order.h"

#include <utility>

namespace evalsuite::study {

std::vector<std::string> BlockOrder(uint64_t study_seed, const std::vector<std::string>& entries, int block) {
  // A stream of its own per block ("order" in ASCII mixed in), so the order does not correlate with the run seeds
  // and block k needs nothing of blocks 0 .. k-1.
  SplitMix64 rng(DeriveSeed(study_seed ^ 0x6f72646572ULL, static_cast<uint64_t>(block) + 1));
  std::vector<std::string> order = entries;
  DeterministicShuffle(order.begin(), order.end(), rng);
  return order;
}

std::vector<RunKey> InterleavedRunOrder(uint64_t study_seed, const std::vector<std::string>& entries,
                                        int runs_per_entry) {
  std::vector<RunKey> order;
  for (int block = 0; block < runs_per_entry; ++block) {
    for (std::string& entry : BlockOrder(study_seed, entries, block)) order.push_back({std::move(entry), block});
  }
  return order;
}

}  // namespace evalsuite::study
