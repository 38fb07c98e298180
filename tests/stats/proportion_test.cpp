#include "stats/proportion.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace evalsuite::stats {
namespace {

// Worked values from issues 3 and 7 (exact Clopper-Pearson, 95%).
TEST(ClopperPearsonTest, NineOfTen) {
  const Interval ci = ClopperPearson(9, 10);
  EXPECT_NEAR(ci.lower, 0.554984, 5e-7);
  EXPECT_NEAR(ci.upper, 0.997471, 5e-7);
}

TEST(ClopperPearsonTest, AllSucceeded) {
  const Interval ci = ClopperPearson(10, 10);
  EXPECT_NEAR(ci.lower, 0.691503, 5e-7);
  EXPECT_DOUBLE_EQ(ci.upper, 1);
}

TEST(ClopperPearsonTest, NoneSucceeded) {
  const Interval ci = ClopperPearson(0, 10);
  EXPECT_DOUBLE_EQ(ci.lower, 0);
  EXPECT_NEAR(ci.upper, 0.308497, 5e-7);
}

TEST(ClopperPearsonTest, HoldoutOf2864Images) {
  const Interval ci = ClopperPearson(2664, 2864);
  EXPECT_NEAR(ci.lower, 0.920212, 5e-7);
  EXPECT_NEAR(ci.upper, 0.939233, 5e-7);
}

TEST(ClopperPearsonTest, OneTrial) {
  // 1/1: lower = (alpha/2)^(1/n) = 0.025.
  EXPECT_NEAR(ClopperPearson(1, 1).lower, 0.025, 1e-12);
  EXPECT_NEAR(ClopperPearson(0, 1).upper, 0.975, 1e-12);
}

TEST(ClopperPearsonTest, NoTrialsGivesTheWholeRangeAndBadCountsThrow) {
  const Interval ci = ClopperPearson(0, 0);
  EXPECT_DOUBLE_EQ(ci.lower, 0);
  EXPECT_DOUBLE_EQ(ci.upper, 1);
  EXPECT_THROW(ClopperPearson(11, 10), std::invalid_argument);
  EXPECT_THROW(ClopperPearson(1, 10, 0), std::invalid_argument);
}

// Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), chapter 8: complete response
// before and after consolidation therapy (Cavo et al. 2012), table {{59, 6}, {16, 80}}; Newcombe square-and-add
// interval: estimate -0.0621, 95% CI -0.1186 to -0.0046 (as the book's R package contingencytables prints it).
TEST(PairedProportionDifferenceTest, CavoExampleFromFagerlandEtAl) {
  const Interval ci = PairedProportionDifference(PairedCounts{59, 6, 16, 80});
  EXPECT_NEAR(ci.lower, -0.1186, 5e-5);
  EXPECT_NEAR(ci.upper, -0.0046, 5e-5);
}

TEST(PairedProportionDifferenceTest, ContainsTheEstimateAndMirrorsWhenBAndCSwap) {
  const PairedCounts t{40, 12, 4, 44};
  const double estimate = (12.0 - 4.0) / 100.0;
  const Interval ci = PairedProportionDifference(t);
  EXPECT_LT(ci.lower, estimate);
  EXPECT_GT(ci.upper, estimate);
  EXPECT_GE(ci.lower, -1);
  EXPECT_LE(ci.upper, 1);
  const Interval swapped = PairedProportionDifference(PairedCounts{40, 4, 12, 44});
  EXPECT_NEAR(swapped.lower, -ci.upper, 1e-12);
  EXPECT_NEAR(swapped.upper, -ci.lower, 1e-12);
}

TEST(PairedProportionDifferenceTest, IdenticalClassifiersStillGetAnInterval) {
  const Interval ci = PairedProportionDifference(PairedCounts{50, 0, 0, 50});
  EXPECT_LE(ci.lower, 0);
  EXPECT_GE(ci.upper, 0);
  EXPECT_LT(ci.upper - ci.lower, 0.1);
}

TEST(PairedProportionDifferenceTest, ExtremesStayWithinMinusOneAndOne) {
  const Interval all_a = PairedProportionDifference(PairedCounts{0, 10, 0, 0});
  EXPECT_LE(all_a.upper, 1);
  EXPECT_GT(all_a.lower, 0);
  const Interval none = PairedProportionDifference(PairedCounts{0, 0, 0, 0});
  EXPECT_DOUBLE_EQ(none.lower, -1);
  EXPECT_DOUBLE_EQ(none.upper, 1);
}

TEST(PairedProportionDifferenceTest, FromBCAndNIsTheWidestOverSplits) {
  const Interval known = PairedProportionDifference(PairedCounts{59, 6, 16, 80});
  const Interval unknown = PairedProportionDifference(6, 16, 161);
  EXPECT_LE(unknown.lower, known.lower);
  EXPECT_GE(unknown.upper, known.upper);
  EXPECT_LT(unknown.lower, -10.0 / 161);
  EXPECT_GT(unknown.upper, -10.0 / 161);
  EXPECT_THROW(PairedProportionDifference(6, 16, 20), std::invalid_argument);
}

}  // namespace
}  // namespace evalsuite::stats
