// Lan-DeMets O'Brien-Fleming boundaries against the published values (R's ldbounds and gsDesign print 4.8769,
// 3.3569, 2.6803, 2.2898, 2.0310 for K = 5 equally spaced looks at two-sided alpha 0.05), which scipy's
// multivariate normal (Genz) integrates to a crossing probability of 0.050003
// (`/usr/bin/python3 tests/stats/comparison_oracle.py`).
#include "stats/group_sequential.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "stats/sequential_comparison.h"

namespace evalsuite::stats {
namespace {

TEST(GroupSequentialTest, FiveEquallySpacedLooksMatchPublishedBounds) {
  const auto b = GroupSequentialBoundaries({0.2, 0.4, 0.6, 0.8, 1.0}, 0.05);
  const std::vector<double> published{4.8769, 3.3569, 2.6803, 2.2898, 2.0310};
  ASSERT_EQ(b.size(), published.size());
  for (std::size_t k = 0; k < b.size(); ++k) EXPECT_NEAR(b[k].critical_z, published[k], 2e-4) << "look " << k + 1;
  EXPECT_NEAR(b.back().cumulative_alpha, 0.05, 1e-12);
}

TEST(GroupSequentialTest, OneLookIsTheFixedTest) {
  const auto b = GroupSequentialBoundaries({1.0}, 0.05);
  EXPECT_NEAR(b[0].critical_z, 1.959963984540054, 1e-8);
}

TEST(GroupSequentialTest, SpendingFunctionAndInputChecks) {
  EXPECT_DOUBLE_EQ(ObrienFlemingSpending(0, 0.05), 0);
  EXPECT_DOUBLE_EQ(ObrienFlemingSpending(1, 0.05), 0.05);
  // 4 - 4 Phi(z_{0.9875} / sqrt(0.5)) = 0.0030506455159778 (scipy.stats.norm)
  EXPECT_NEAR(ObrienFlemingSpending(0.5, 0.05), 0.0030506455159778, 1e-12);
  EXPECT_THROW(GroupSequentialBoundaries({0.5, 0.4}, 0.05), std::invalid_argument);
  EXPECT_THROW(GroupSequentialBoundaries({0.5, 1.1}, 0.05), std::invalid_argument);
  EXPECT_THROW(GroupSequentialBoundaries({1.0}, 0), std::invalid_argument);
  EXPECT_THROW(BlockwiseBoundaries(5, 4, 0.05), std::invalid_argument);
}

TEST(GroupSequentialTest, BlockwiseLooksSpendLittleEarlyAndEndNearTheFixedValue) {
  const auto b = BlockwiseBoundaries(3, 20, 0.05);
  ASSERT_EQ(b.size(), 18u);
  EXPECT_GT(b.front().critical_z, 4.5);
  for (std::size_t k = 1; k < b.size(); ++k) EXPECT_LT(b[k].critical_z, b[k - 1].critical_z);
  EXPECT_GT(b.back().critical_z, 1.96);
  EXPECT_LT(b.back().critical_z, 2.2);
}

TEST(SequentialComparisonTest, WaitsForMinRunsStopsAtCrossingAndAtMaxRuns) {
  const SequentialComparisonDesign design(3, 6, 0.05);
  std::vector<SurvivalObservation> fast, slow, same;
  for (int i = 0; i < 6; ++i) {
    fast.push_back({10.0 + i * 0.1, true});
    slow.push_back({20.0 + i * 0.1, true});
    same.push_back({10.05 + i * 0.1, true});
  }
  const SequentialDecision none = design.Decide({fast.begin(), fast.begin() + 2}, {slow.begin(), slow.begin() + 2});
  EXPECT_FALSE(none.stop);
  EXPECT_TRUE(none.looks.empty());
  const SequentialDecision clear = design.Decide(fast, slow);
  ASSERT_TRUE(clear.stop);
  EXPECT_EQ(clear.result, "A faster");
  EXPECT_LT(clear.runs_per_entry, 6);
  EXPECT_EQ(clear.reason.rfind("stopped early", 0), 0u) << clear.reason;
  const SequentialDecision reversed = design.Decide(slow, fast);
  EXPECT_EQ(reversed.result, "B faster");
  const SequentialDecision tie = design.Decide(fast, same);
  ASSERT_TRUE(tie.stop);
  EXPECT_EQ(tie.result, "no difference shown");
  EXPECT_EQ(tie.looks.size(), 4u);
  EXPECT_EQ(tie.reason.rfind("stopped at max_runs", 0), 0u) << tie.reason;
}

// The boundaries' own error rate: standardized Brownian motion observed at the blockwise looks (the statistic's
// exact law under the null) crosses them with probability alpha.
TEST(GroupSequentialTest, BrownianPathsCrossBlockwiseBoundariesWithProbabilityAlpha) {
  constexpr int kPaths = 200000;
  const auto b = BlockwiseBoundaries(3, 20, 0.05);
  std::mt19937_64 engine(5);
  std::normal_distribution<double> step(0, 1);
  int crossed = 0;
  for (int p = 0; p < kPaths; ++p) {
    double sum = 0;  // of n standard normal increments: Z_n = sum / sqrt(n)
    for (int n = 1; n <= 20; ++n) {
      sum += step(engine);
      if (n >= 3 && std::abs(sum / std::sqrt(n)) >= b[n - 3].critical_z) {
        ++crossed;
        break;
      }
    }
  }
  const double rate = static_cast<double>(crossed) / kPaths;
  EXPECT_NEAR(rate, 0.05, 3 * std::sqrt(0.05 * 0.95 / kPaths));
}

}  // namespace
}  // namespace evalsuite::stats
