// The stratified bootstrap of a weighted mean of stratum means: the estimate by hand, the interval's bounds
// where every resample's value can be listed, and determinism for a seed. Its coverage is simulated where it is
// used (tests/labeling/second_pass_test.cpp, the corrected accuracy of the debiasing pass).
#include "stats/stratified_bootstrap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// Strata {1, 1}, {0, 1}, {} with weights .25, .5, .25: the empty stratum drops out, so the estimate is
// (.25 x 1 + .5 x .5) / .75 = 2/3. A resample's second-stratum mean is 0, .5 or 1 (probabilities 1/4, 1/2,
// 1/4), so every resample is 1/3, 2/3 or 1, and the 2.5% and 97.5% quantiles of 2000 are 1/3 and 1.
TEST(StratifiedBootstrapTest, EstimateAndIntervalByHand) {
  const StratifiedEstimate e = StratifiedWeightedMean({{1, 1}, {0, 1}, {}}, {0.25, 0.5, 0.25});
  EXPECT_NEAR(e.estimate, 2.0 / 3, 1e-12);
  EXPECT_NEAR(e.interval.lower, 1.0 / 3, 1e-12);
  EXPECT_NEAR(e.interval.upper, 1.0, 1e-12);
  EXPECT_EQ(e.resamples, kStratifiedBootstrapResamples);
  EXPECT_EQ(e.seed, kStratifiedBootstrapSeed);

  // Constant strata: no sampling variation, so the interval is the point.
  const StratifiedEstimate constant = StratifiedWeightedMean({{1, 1, 1}, {0}}, {0.5, 0.5});
  EXPECT_DOUBLE_EQ(constant.interval.lower, 0.5);
  EXPECT_DOUBLE_EQ(constant.interval.upper, 0.5);

  const StratifiedEstimate none = StratifiedWeightedMean({{}, {1}}, {1, 0});
  EXPECT_TRUE(std::isnan(none.estimate));
  EXPECT_TRUE(std::isnan(none.interval.lower));
  EXPECT_THROW(StratifiedWeightedMean({{1}}, {1, 1}), std::invalid_argument);
}

TEST(StratifiedBootstrapTest, SameSeedSameIntervalOtherSeedOther) {
  std::vector<std::vector<double>> strata(3);
  for (int i = 0; i < 40; ++i) {
    strata[0].push_back(i % 3 == 0);
    strata[1].push_back(i % 2 == 0);
    strata[2].push_back(i % 5 != 0);
  }
  const std::vector<double> weights = {0.2, 0.3, 0.5};
  const StratifiedEstimate a = StratifiedWeightedMean(strata, weights, 0.05, 500, 7);
  const StratifiedEstimate b = StratifiedWeightedMean(strata, weights, 0.05, 500, 7);
  const StratifiedEstimate c = StratifiedWeightedMean(strata, weights, 0.05, 500, 8);
  EXPECT_EQ(a.interval.lower, b.interval.lower);
  EXPECT_EQ(a.interval.upper, b.interval.upper);
  EXPECT_TRUE(a.interval.lower != c.interval.lower || a.interval.upper != c.interval.upper);
  EXPECT_LT(a.interval.lower, a.estimate);
  EXPECT_GT(a.interval.upper, a.estimate);
}

}  // namespace
}  // namespace evalsuite::stats
