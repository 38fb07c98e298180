#include "stats/descriptive.h"

#include <gtest/gtest.h>

#include <cmath>

namespace evalsuite::stats {
namespace {

TEST(DescriptiveTest, SummarizesASample) {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
  const Summary s = Summarize({9, 2, 4, 4, 4, 5, 5, 7});
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
}

TEST(DescriptiveTest, OddCountMedianIsTheMiddleValue) { EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2); }

TEST(DescriptiveTest, EmptySampleIsAllNaN) {
  const Summary s = Summarize({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_TRUE(std::isnan(s.mean));
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_TRUE(std::isnan(s.stddev));
  EXPECT_TRUE(std::isnan(s.min));
  EXPECT_TRUE(std::isnan(s.max));
  EXPECT_TRUE(std::isnan(Median({})));
  EXPECT_TRUE(std::isnan(CoefficientOfVariation({})));
}

TEST(DescriptiveTest, OneValueHasNoStandardDeviation) {
  const Summary s = Summarize({42});
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 42);
  EXPECT_DOUBLE_EQ(s.median, 42);
  EXPECT_TRUE(std::isnan(s.stddev));
  EXPECT_TRUE(std::isnan(CoefficientOfVariation({42})));
}

TEST(DescriptiveTest, CoefficientOfVariationIsSampleStddevOverMean) {
  EXPECT_NEAR(CoefficientOfVariation({9, 2, 4, 4, 4, 5, 5, 7}), std::sqrt(32.0 / 7.0) / 5, 1e-12);
  EXPECT_DOUBLE_EQ(CoefficientOfVariation({3, 3, 3}), 0);
}

TEST(DescriptiveTest, LargeOffsetDoesNotCancel) {
  // TTA-like values: a large mean with small spread; a one-pass formula would lose the digits.
  const Summary s = Summarize({1e9 + 1, 1e9 + 2, 1e9 + 3});
  EXPECT_NEAR(s.stddev, 1.0, 1e-6);
}

}  // namespace
}  // namespace evalsuite::stats
