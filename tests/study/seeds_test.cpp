// Seeds: run seeds are distinct and reproducible (the run order: run_order_test.cpp).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "study/plans/plan_seeds.h"

namespace evalsuite::study {
namespace {

TEST(SeedsTest, RunSeedsAreDistinctReproducibleAndDependOnTheStudySeed) {
  std::vector<RunKey> runs;
  for (int e = 0; e < 40; ++e) {
    for (int i = 0; i < 250; ++i) runs.push_back({"entry-" + std::to_string(e), i});
  }
  std::vector<uint64_t> seeds = DeriveSeedPerRun(1, runs);
  ASSERT_EQ(seeds.size(), runs.size());
  EXPECT_EQ(std::set<uint64_t>(seeds.begin(), seeds.end()).size(), seeds.size());  // 10,000 runs, no repeat
  for (uint64_t s : seeds) EXPECT_LE(s, kDerivedSeedMask);
  EXPECT_EQ(DeriveSeedPerRun(1, runs), seeds);
  std::vector<uint64_t> other = DeriveSeedPerRun(2, runs);
  int same = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) same += seeds[i] == other[i];
  EXPECT_LT(same, 3);
  // A run's seed depends on its entry and index, not on which other runs are planned.
  std::vector<uint64_t> alone = DeriveSeedPerRun(1, {{"entry-3", 17}});
  EXPECT_EQ(alone[0], seeds[3 * 250 + 17]);
}

}  // namespace
}  // namespace evalsuite::study
