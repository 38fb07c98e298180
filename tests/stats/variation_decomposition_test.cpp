// The decomposition of TTA's variation into epochs to target (the seed's) and time per epoch (the machine's),
// against values computed by hand.
#include "stats/variation_decomposition.h"

#include <gtest/gtest.h>

#include <cmath>

namespace evalsuite::stats {
namespace {

TEST(VariationDecompositionTest, MatchesHandComputedValues) {
  // Three runs: epochs to target 2, 2, 4; time per epoch 10, 20, 10 s, so TTA 20, 40, 40 s.
  //   CoV(epochs) = sd(2,2,4)/mean = 1.1547005/2.6666667 = 0.4330127
  //   CoV(time per epoch) = sd(10,20,10)/mean = 5.7735027/13.333333 = 0.4330127
  //   CoV(TTA) = sd(20,40,40)/mean = 11.547005/33.333333 = 0.3464102
  //   ln epochs = (l2, l2, 2 l2), ln time per epoch = (ln 10, ln 10 + l2, ln 10) with l2 = ln 2:
  //   var(ln epochs) = var(ln tpe) = l2^2 / 3 = 0.1601513; cov = -l2^2 / 6, so 2 cov = -l2^2 / 3 = -0.1601513;
  //   var(ln TTA) = var(0, l2, l2) = l2^2 / 3 = 0.1601513 = 0.1601513 + 0.1601513 - 0.1601513.
  const double l2 = std::log(2.0);
  const VariationDecomposition d = DecomposeVariation({20.0, 40.0, 40.0}, {2.0, 2.0, 4.0});
  ASSERT_EQ(d.runs, 3u);
  EXPECT_NEAR(*d.cov_epochs, 0.4330127, 1e-7);
  EXPECT_NEAR(*d.cov_time_per_epoch, 0.4330127, 1e-7);
  EXPECT_NEAR(*d.cov_tta, 0.3464102, 1e-7);
  EXPECT_NEAR(*d.var_log_epochs, l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(*d.var_log_time_per_epoch, l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(*d.covariance_term, -l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(*d.var_log_tta, l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(*d.share_epochs, 1.0, 1e-12);
  EXPECT_NEAR(*d.share_time_per_epoch, 1.0, 1e-12);
  EXPECT_NEAR(*d.share_covariance, -1.0, 1e-12);
}

TEST(VariationDecompositionTest, AStableTrainingOnABusyMachineIsAllTimePerEpoch) {
  // Identical epochs to target: every bit of TTA's variation is the machine's.
  const VariationDecomposition d = DecomposeVariation({30.0, 45.0, 60.0, 33.0}, {3.0, 3.0, 3.0, 3.0});
  EXPECT_NEAR(*d.cov_epochs, 0.0, 1e-15);
  EXPECT_NEAR(*d.cov_time_per_epoch, *d.cov_tta, 1e-12);
  EXPECT_NEAR(*d.share_time_per_epoch, 1.0, 1e-12);
  EXPECT_NEAR(*d.share_epochs, 0.0, 1e-15);
}

TEST(VariationDecompositionTest, RunsThatDidNotReachAreLeftOutAndTooFewGiveNothing) {
  const VariationDecomposition d = DecomposeVariation({20.0, std::nullopt, 40.0, 40.0}, {2.0, std::nullopt, 2.0, 4.0});
  EXPECT_EQ(d.runs, 3u);
  EXPECT_NEAR(*d.cov_tta, 0.3464102, 1e-7);
  const VariationDecomposition one = DecomposeVariation({20.0, std::nullopt}, {2.0, 3.0});
  EXPECT_EQ(one.runs, 1u);
  EXPECT_FALSE(one.cov_tta);
  EXPECT_FALSE(one.share_epochs);
}

}  // namespace
}  // namespace evalsuite::stats
