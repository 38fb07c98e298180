#include "stats/improvement.h"

#include <gtest/gtest.h>

namespace evalsuite::stats {
namespace {

// P(TTA_A < TTA_B) with runs that never reached slower than any that did. scipy oracle (a never-reached run as a
// large number; mannwhitneyu's statistic counts pairs with a > b, ties 1/2):
//   1 - mannwhitneyu([10, 20, 1e12], [15, 1e12, 1e12]).statistic / 9 = 1 - 3/9 = 0.666667
TEST(ProbabilityOfImprovementTest, CountsNeverReachedAsSlowest) {
  const ImprovementProbability p =
      ProbabilityOfImprovement({10.0, 20.0, std::nullopt}, {15.0, std::nullopt, std::nullopt});
  EXPECT_NEAR(p.probability, 6.0 / 9.0, 1e-12);
  EXPECT_LE(p.interval.lower, p.probability);
  EXPECT_GE(p.interval.upper, p.probability);
  EXPECT_GE(p.interval.lower, 0.0);
  EXPECT_LE(p.interval.upper, 1.0);
  EXPECT_LT(p.interval.lower, p.interval.upper);
  // Seeded: the same interval every time.
  const ImprovementProbability again =
      ProbabilityOfImprovement({10.0, 20.0, std::nullopt}, {15.0, std::nullopt, std::nullopt});
  EXPECT_EQ(p.interval.lower, again.interval.lower);
  EXPECT_EQ(p.interval.upper, again.interval.upper);
  // Symmetry: P(A < B) + P(B < A) = 1 with ties halved.
  EXPECT_NEAR(ProbabilityOfImprovement({15.0, std::nullopt, std::nullopt}, {10.0, 20.0, std::nullopt}).probability,
              3.0 / 9.0, 1e-12);
  EXPECT_DOUBLE_EQ(ProbabilityOfImprovement({std::nullopt}, {std::nullopt}).probability, 0.5);
}

TEST(ProbabilityOfImprovementTest, SeparatedEntriesHaveADegenerateInterval) {
  const ImprovementProbability p = ProbabilityOfImprovement({1.0, 2.0, 3.0}, {10.0, 11.0, 12.0});
  EXPECT_DOUBLE_EQ(p.probability, 1.0);
  EXPECT_DOUBLE_EQ(p.interval.lower, 1.0);
  EXPECT_DOUBLE_EQ(p.interval.upper, 1.0);
}

// Dodge et al. 2019 on -TTA. Oracle: enumeration of every ordered draw of n of [10, 20, 30, never] in Python
// (itertools.product), mean of the fastest among draws where one reached: n=1 20.0, n=2 17.333333,
// n=3 15.238095; P(none reaches) 0.25, 0.0625, 0.015625.
TEST(ExpectedBestOfNTest, MatchesEnumeration) {
  const std::vector<ExpectedBest> best = ExpectedBestOfN({10.0, 20.0, 30.0, std::nullopt}, 3);
  ASSERT_EQ(best.size(), 3u);
  EXPECT_NEAR(*best[0].expected_tta, 20.0, 1e-12);
  EXPECT_NEAR(*best[1].expected_tta, 17.333333333333332, 1e-12);
  EXPECT_NEAR(*best[2].expected_tta, 15.238095238095237, 1e-12);
  EXPECT_DOUBLE_EQ(best[0].none_reach, 0.25);
  EXPECT_DOUBLE_EQ(best[2].none_reach, 0.015625);
  const std::vector<ExpectedBest> none = ExpectedBestOfN({std::nullopt, std::nullopt}, 2);
  EXPECT_FALSE(none[1].expected_tta.has_value());
  EXPECT_DOUBLE_EQ(none[1].none_reach, 1.0);
}

}  // namespace
}  // namespace evalsuite::stats
