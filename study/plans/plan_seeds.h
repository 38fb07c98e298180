// Seeds are data (the plan's side; common/seeds.h derives a run's own streams from its seed): each run's seed
// is derived from the study's base seed, the entry's name and the run index by SplitMix64, never from
// std::random_device, and no two runs of a study share one. The run order is run_order.h's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/seeds.h"

namespace evalsuite::study {

// FNV-1a, 64 bit: a stable hash of an entry's name (std::hash may differ between builds).
uint64_t StableHash(const std::string& text);

struct RunKey {
  std::string entry;
  int index = 0;
};

// One seed per run (entry, index) from the study's base seed, in the order given, all distinct and 32-bit
// (kDerivedSeedMask): a collision draws the next value of that run's stream. The seed of a run depends only on
// (base_seed, entry, index) unless a collision happened. (A run's own streams come from its seed:
// training::DeriveStreamSeeds.)
std::vector<uint64_t> DeriveSeedPerRun(uint64_t base_seed, const std::vector<RunKey>& runs);

}  // namespace evalsuite::study
