#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <vector>

#include "stats/curve.h"
#include "stats/ert.h"
#include "stats/olympic.h"

namespace evalsuite::stats {
namespace {

using Times = std::vector<std::optional<double>>;
constexpr std::nullopt_t kFailed = std::nullopt;

// Each expectation is what mlperf_logging's result_summarizer._compute_olympic_average(scores, dropped,
// max_dropped) returns: sorted(scores)[max_dropped : len - (max_dropped - dropped)], averaged.
TEST(OlympicMeanTest, DropsFastestAndSlowestOfFive) {
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{30, 10, 50, 20, 40}), 30);  // (20 + 30 + 40) / 3
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{12, 10, 11, 100, 13}), 12);
}

TEST(OlympicMeanTest, AFailureStandsInForTheSlowest) {
  // scores [10, 20, 30, 40], dropped 1: [20, 30, 40] / 3.
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{40, kFailed, 10, 30, 20}), 30);
}

TEST(OlympicMeanTest, MoreFailuresThanDroppedGiveNoScore) {
  EXPECT_FALSE(OlympicMean(Times{10, kFailed, 30, kFailed, 20}).has_value());
  EXPECT_FALSE(OlympicMean(Times{kFailed, kFailed, kFailed}).has_value());
}

TEST(OlympicMeanTest, Unet3dDropsFourEachSide) {
  // 40 runs 1..40 with two failures: scores 1..38, [4 : 38 - 2] = 5..36, mean 20.5.
  Times times;
  for (int i = 1; i <= 38; ++i) times.push_back(i);
  times.push_back(kFailed);
  times.push_back(kFailed);
  EXPECT_DOUBLE_EQ(*OlympicMean(times, 4), 20.5);
}

TEST(OlympicMeanTest, TiesAreKept) { EXPECT_DOUBLE_EQ(*OlympicMean(Times{5, 5, 5, 5, 5}), 5); }

TEST(OlympicMeanTest, TooFewRunsGiveNoScore) {
  EXPECT_FALSE(OlympicMean(Times{}).has_value());
  EXPECT_FALSE(OlympicMean(Times{10}).has_value());
  EXPECT_FALSE(OlympicMean(Times{10, 20}).has_value());
  EXPECT_FALSE(OlympicMean(Times{10, kFailed}).has_value());
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{10, 20, 30}), 20);
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{30, 10, kFailed}), 30);  // scores [10, 30][1 : 2]
}

TEST(OlympicMeanTest, DroppingNothingIsThePlainMean) {
  EXPECT_DOUBLE_EQ(*OlympicMean(Times{1, 2, 6}, 0), 3);
  EXPECT_FALSE(OlympicMean(Times{1, kFailed}, 0).has_value());
}

TEST(ExpectedRunningTimeTest, TotalTimeOverSuccesses) {
  EXPECT_DOUBLE_EQ(*ExpectedRunningTime({10, 12, 30, 11}, 3), 21);
  EXPECT_DOUBLE_EQ(*ExpectedRunningTime({5}, 1), 5);
}

TEST(ExpectedRunningTimeTest, NoSuccessMeansNoFiniteValue) {
  EXPECT_FALSE(ExpectedRunningTime({10, 20}, 0).has_value());
  EXPECT_FALSE(ExpectedRunningTime({}, 0).has_value());
}

TEST(TimeToTargetTest, FirstEvaluationAtOrAboveThreshold) {
  const std::vector<CurvePoint> curve{{1, 0.5}, {2, 0.9}, {3, 0.94}, {4, 0.93}, {5, 0.96}};
  EXPECT_DOUBLE_EQ(*TimeToTarget(curve, 0.94), 3);  // at the threshold counts
  EXPECT_DOUBLE_EQ(*TimeToTarget(curve, 0.95), 5);
  EXPECT_DOUBLE_EQ(*TimeToTarget(curve, 0.1), 1);
  EXPECT_FALSE(TimeToTarget(curve, 0.97).has_value());
}

TEST(TimeToTargetTest, EmptyAndNaNCurvesNeverReach) {
  EXPECT_FALSE(TimeToTarget({}, 0.5).has_value());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(TimeToTarget({{1, nan}, {2, nan}}, 0.5).has_value());
}

TEST(TimeToTargetTest, UnsortedCurveUsesTheEarliestTime) {
  EXPECT_DOUBLE_EQ(*TimeToTarget({{5, 0.99}, {2, 0.95}, {1, 0.2}}, 0.9), 2);
}

}  // namespace
}  // namespace evalsuite::stats
