#include "stats/agreement.h"

#include <gtest/gtest.h>

#include <cmath>

namespace evalsuite::stats {
namespace {

std::vector<std::pair<int, int>> Repeat(std::pair<int, int> pair, int times) {
  return {static_cast<std::size_t>(times), pair};
}

// Wikipedia, "Cohen's kappa", simple example: 50 proposals, A yes / B yes 20, yes / no 5, no / yes 10,
// no / no 15: p_o = 0.7, p_e = 0.5, kappa = 0.4.
TEST(CohenKappaTest, WikipediaExample) {
  std::vector<std::pair<int, int>> labels;
  for (const auto& [pair, times] : {std::pair{std::pair{1, 1}, 20}, std::pair{std::pair{1, 0}, 5},
                                    std::pair{std::pair{0, 1}, 10}, std::pair{std::pair{0, 0}, 15}}) {
    const auto more = Repeat(pair, times);
    labels.insert(labels.end(), more.begin(), more.end());
  }
  const KappaResult r = CohenKappa(labels);
  EXPECT_EQ(r.items, 50u);
  EXPECT_NEAR(r.observed_agreement, 0.7, 1e-12);
  EXPECT_NEAR(r.expected_agreement, 0.5, 1e-12);
  EXPECT_NEAR(r.kappa, 0.4, 1e-12);
}

TEST(CohenKappaTest, PerfectAndChanceAgreement) {
  EXPECT_NEAR(CohenKappa({{1, 1}, {2, 2}, {3, 3}, {1, 1}}).kappa, 1, 1e-12);
  // Rater B's labels independent of A's: observed equals expected.
  EXPECT_NEAR(CohenKappa({{0, 0}, {0, 1}, {1, 0}, {1, 1}}).kappa, 0, 1e-12);
}

TEST(CohenKappaTest, UndefinedCases) {
  EXPECT_TRUE(std::isnan(CohenKappa({}).kappa));
  EXPECT_EQ(CohenKappa({}).items, 0u);
  // Both raters always say the same single label: chance agreement 1.
  const KappaResult same = CohenKappa({{3, 3}, {3, 3}});
  EXPECT_TRUE(std::isnan(same.kappa));
  EXPECT_DOUBLE_EQ(same.observed_agreement, 1);
}

// Fleiss (1971) as reproduced in Wikipedia's "Fleiss' kappa" worked example: 10 items, 14 raters,
// 5 categories; P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210.
TEST(FleissKappaTest, WikipediaExample) {
  const std::vector<std::vector<std::size_t>> counts{
      {0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
      {7, 7, 0, 0, 0},  {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7}};
  const KappaResult r = FleissKappa(counts);
  EXPECT_EQ(r.items, 10u);
  EXPECT_NEAR(r.observed_agreement, 0.378, 5e-4);
  EXPECT_NEAR(r.expected_agreement, 0.213, 5e-4);
  EXPECT_NEAR(r.kappa, 0.210, 5e-4);
}

TEST(FleissKappaTest, TwoRatersMatchScottsPi) {
  // With two raters per item Fleiss' kappa is Scott's pi: p_o = 3/4, pooled shares 5/8 and 3/8 ->
  // p_e = 34/64, pi = (48 - 34) / (64 - 34) = 14/30.
  const KappaResult r = FleissKappa({{2, 0}, {0, 2}, {1, 1}, {2, 0}});
  EXPECT_NEAR(r.observed_agreement, 0.75, 1e-12);
  EXPECT_NEAR(r.expected_agreement, 34.0 / 64, 1e-12);
  EXPECT_NEAR(r.kappa, 14.0 / 30, 1e-12);
}

TEST(FleissKappaTest, ItemsWithFewerThanTwoRatingsAreLeftOut) {
  const KappaResult with_single = FleissKappa({{2, 0}, {0, 2}, {1, 1}, {2, 0}, {1, 0}, {0, 0}});
  EXPECT_EQ(with_single.items, 4u);
  EXPECT_NEAR(with_single.kappa, 14.0 / 30, 1e-12);
}

TEST(FleissKappaTest, ItemsMayHaveDifferentNumbersOfRaters) {
  // Perfect agreement with 2, 3 and 4 raters is still kappa 1.
  const KappaResult r = FleissKappa({{2, 0, 0}, {0, 3, 0}, {0, 0, 4}});
  EXPECT_EQ(r.items, 3u);
  EXPECT_NEAR(r.kappa, 1, 1e-12);
}

TEST(FleissKappaTest, UndefinedCases) {
  EXPECT_TRUE(std::isnan(FleissKappa({}).kappa));
  EXPECT_TRUE(std::isnan(FleissKappa({{1, 0}, {0, 1}}).kappa));  // no item has two ratings
  EXPECT_TRUE(std::isnan(FleissKappa({{3, 0}, {4, 0}}).kappa));  // one category only: chance agreement 1
}

}  // namespace
}  // namespace evalsuite::stats
