#include "reports/sensitivity_grid.h"

#include <gtest/gtest.h>

namespace evalsuite::reports {
namespace {

TEST(SensitivityGridTest, FractionScaleUsesQuarterPercentSteps) {
  EXPECT_EQ(SensitivityThresholds(0.93, {}), (std::vector<double>{0.92, 0.9225, 0.925, 0.9275, 0.93, 0.9325, 0.935}));
}

TEST(SensitivityGridTest, PercentScaleUsesQuarterPointSteps) {
  EXPECT_EQ(SensitivityThresholds(75.9, {}), (std::vector<double>{74.9, 75.15, 75.4, 75.65, 75.9, 76.15, 76.4}));
}

TEST(SensitivityGridTest, ExtraThresholdsAreMergedSortedAndDeduplicated) {
  EXPECT_EQ(SensitivityThresholds(0.93, {0.94, 0.925, 0.9}),
            (std::vector<double>{0.9, 0.92, 0.9225, 0.925, 0.9275, 0.93, 0.9325, 0.935, 0.94}));
}

TEST(SensitivityGridTest, GridStaysInsideTheMetricScale) {
  EXPECT_EQ(SensitivityThresholds(0.998, {}), (std::vector<double>{0.988, 0.9905, 0.993, 0.9955, 0.998}));
  EXPECT_EQ(SensitivityThresholds(0.005, {}), (std::vector<double>{0.0, 0.0025, 0.005, 0.0075, 0.01}));
}

// Issue 30 item 8: llama2_70b_lora's eval_loss is lower-is-better, stored negated (target -0.925); the grid was
// clipped to [0, 1] and came out empty. On the metric's own scale it has the target and its neighbours.
TEST(SensitivityGridTest, LowerIsBetterMetricStoredNegatedGetsAGrid) {
  EXPECT_EQ(SensitivityThresholds(-0.925, {}),
            (std::vector<double>{-0.935, -0.9325, -0.93, -0.9275, -0.925, -0.9225, -0.92}));
  EXPECT_EQ(SensitivityThresholds(-3.3, {}).size(), 7u);
}

}  // namespace
}  // namespace evalsuite::reports
