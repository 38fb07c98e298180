// The order a study's runs start in: shuffled blocks, one run of each entry per block (block k holds every
// entry's run k), the entries shuffled afresh in each block from the study seed. Drift of the machine's speed (a
// neighbour starting, thermal limits, a cache warming) then falls on every entry alike instead of on whichever
// entry ran last (google/benchmark's random interleaving). A block's order depends only on (study seed, entries,
// block index), so a scheduler that decides after each block whether to go on (a sequential study) can make
// block k without making the earlier ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "study/plans/plan_seeds.h"

namespace evalsuite::study {

// The entries of block `block` (0-based) in the order they start: a permutation of `entries`.
std::vector<std::string> BlockOrder(uint64_t study_seed, const std::vector<std::string>& entries, int block);

// Blocks 0 .. runs_per_entry - 1, one after the other: every run of the study in the order it starts.
std::vector<RunKey> InterleavedRunOrder(uint64_t study_seed, const std::vector<std::string>& entries,
                                        int runs_per_entry);

// One sentence for the plan and the report: how the order was made.
constexpr const char* kRunOrderMethod =
    "shuffled blocks: block k runs every entry's run k once, in an order shuffled from the study seed and k "
    "(SplitMix64, Fisher-Yates), so drift of the machine falls on every entry alike";

}  // namespace evalsuite::study
