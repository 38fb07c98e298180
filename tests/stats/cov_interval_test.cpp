#include "stats/cov_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// Worked values from issue 3 (Vangel 1996's modified McKay interval).
TEST(VangelCovIntervalTest, WorkedValueN10) {
  const Interval ci = VangelCovInterval(0.05, 10);
  EXPECT_NEAR(ci.lower, 0.034369, 5e-7);
  EXPECT_NEAR(ci.upper, 0.091483, 5e-7);
}

TEST(VangelCovIntervalTest, WorkedValueN5) {
  const Interval ci = VangelCovInterval(0.038, 5);
  EXPECT_NEAR(ci.lower, 0.022757, 5e-7);
  EXPECT_NEAR(ci.upper, 0.109524, 5e-7);
}

TEST(VangelCovIntervalTest, ContainsTheEstimateAndNarrowsWithN) {
  const Interval small = VangelCovInterval(0.05, 5);
  const Interval large = VangelCovInterval(0.05, 50);
  EXPECT_LT(small.lower, 0.05);
  EXPECT_GT(small.upper, 0.05);
  EXPECT_LT(large.upper - large.lower, small.upper - small.lower);
}

TEST(VangelCovIntervalTest, ZeroCovGivesZeroInterval) {
  const Interval ci = VangelCovInterval(0, 10);
  EXPECT_DOUBLE_EQ(ci.lower, 0);
  EXPECT_DOUBLE_EQ(ci.upper, 0);
}

TEST(VangelCovIntervalTest, UpperBoundIsInfiniteWhenTheRootIsNotPositive) {
  // n = 5: u2 = chi2(0.025; 4) = 0.484, so ((u2+2)/5 - 1) k^2 + u2/4 < 0 once k > 0.49.
  const Interval ci = VangelCovInterval(1.0, 5);
  EXPECT_TRUE(std::isinf(ci.upper));
  EXPECT_GT(ci.lower, 0);
}

TEST(VangelCovIntervalTest, RejectsTooFewRunsAndNegativeCov) {
  EXPECT_THROW(VangelCovInterval(0.05, 1), std::invalid_argument);
  EXPECT_THROW(VangelCovInterval(0.05, 0), std::invalid_argument);
  EXPECT_THROW(VangelCovInterval(-0.1, 10), std::invalid_argument);
  EXPECT_THROW(VangelCovInterval(0.05, 10, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace evalsuite::stats
