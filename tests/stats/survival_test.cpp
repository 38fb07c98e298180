#include "stats/survival.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// Times 10, 12, 12, 15, 20+, 22, 30+, 31, 35, 40+ (+ = censored): the worked example of issue 3.
std::vector<SurvivalObservation> WorkedExample() {
  return {{10, true}, {12, true},  {12, true}, {15, true}, {20, false},
          {22, true}, {30, false}, {31, true}, {35, true}, {40, false}};
}

TEST(KaplanMeierTest, WorkedExampleSurvival) {
  const KaplanMeierCurve curve = EstimateKaplanMeier(WorkedExample());
  const std::vector<double> times{10, 12, 15, 22, 31, 35};
  const std::vector<double> survival{0.90, 0.70, 0.60, 0.48, 0.32, 0.16};
  const std::vector<std::size_t> at_risk{10, 9, 7, 5, 3, 2};
  const std::vector<std::size_t> events{1, 2, 1, 1, 1, 1};
  ASSERT_EQ(curve.steps.size(), times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_DOUBLE_EQ(curve.steps[i].time, times[i]);
    EXPECT_NEAR(curve.steps[i].survival, survival[i], 1e-12) << "at " << times[i];
    EXPECT_EQ(curve.steps[i].at_risk, at_risk[i]);
    EXPECT_EQ(curve.steps[i].events, events[i]);
    EXPECT_LT(curve.steps[i].lower, curve.steps[i].survival);
    EXPECT_GT(curve.steps[i].upper, curve.steps[i].survival);
  }
}

TEST(KaplanMeierTest, WorkedExampleMedianAndItsInterval) {
  const KaplanMeierCurve curve = EstimateKaplanMeier(WorkedExample());
  ASSERT_TRUE(curve.median && curve.median_lower && curve.median_upper);
  EXPECT_DOUBLE_EQ(*curve.median, 22);
  EXPECT_DOUBLE_EQ(*curve.median_lower, 10);
  EXPECT_DOUBLE_EQ(*curve.median_upper, 35);
}

TEST(KaplanMeierTest, LogLogBandAtTheFirstEvent) {
  // survfit, n = 10, first event: 0.900 with log-log 95% band 0.473 to 0.985 (Greenwood se(log S) =
  // sqrt(1/90); S^exp(+-1.96 se / log S)).
  const KaplanMeierCurve curve = EstimateKaplanMeier(WorkedExample());
  EXPECT_NEAR(curve.steps[0].lower, 0.4730, 5e-4);
  EXPECT_NEAR(curve.steps[0].upper, 0.9853, 5e-4);
}

TEST(KaplanMeierTest, EmptyAndAllCensored) {
  const KaplanMeierCurve empty = EstimateKaplanMeier({});
  EXPECT_TRUE(empty.steps.empty());
  EXPECT_FALSE(empty.median.has_value());
  const KaplanMeierCurve censored = EstimateKaplanMeier({{5, false}, {7, false}});
  EXPECT_TRUE(censored.steps.empty());
  EXPECT_FALSE(censored.median.has_value());
  EXPECT_FALSE(censored.median_lower.has_value());
}

TEST(KaplanMeierTest, OneRun) {
  const KaplanMeierCurve curve = EstimateKaplanMeier({{8, true}});
  ASSERT_EQ(curve.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(curve.steps[0].survival, 0);
  EXPECT_DOUBLE_EQ(*curve.median, 8);
  // The band is undefined at survival 0 (R: NA), so the median has no interval.
  EXPECT_FALSE(curve.median_lower.has_value());
  EXPECT_FALSE(curve.median_upper.has_value());
}

TEST(KaplanMeierTest, MedianOnAFlatStretchAtOneHalfIsItsMidpoint) {
  // 1, 2, 3, 4 all events: S = 0.75, 0.5, 0.25, 0; R reports median 2.5.
  const KaplanMeierCurve curve = EstimateKaplanMeier({{1, true}, {2, true}, {3, true}, {4, true}});
  EXPECT_DOUBLE_EQ(*curve.median, 2.5);
  // A flat 0.5 at the end of the curve: the first time survival is at or below one half, as print.survfit says
  // (quantile.survfit's midpoint with the last censored time, 3, was what evalsuite gave).
  // Rscript -e 'library(survival); print(survfit(Surv(c(1,2,3,4), c(1,1,0,0))~1))'  -> median 2, 0.95LCL 1
  const KaplanMeierCurve tail = EstimateKaplanMeier({{1, true}, {2, true}, {3, false}, {4, false}});
  EXPECT_DOUBLE_EQ(*tail.median, 2);
  EXPECT_DOUBLE_EQ(*tail.median_lower, 1);
  EXPECT_FALSE(tail.median_upper.has_value());
}

TEST(KaplanMeierTest, MedianDoesNotMoveWithAFailedRunsBudget) {
  // Issue 13's example: reached at 10 s and 20 s, two runs stopped below the target at 30 s and 40 s.
  // Rscript -e 'library(survival); print(survfit(Surv(c(10,20,30,40), c(1,1,0,0))~1))'
  //   -> median 20, 0.95LCL 10, 0.95UCL NA   (quantile() would say 30)
  const KaplanMeierCurve curve = EstimateKaplanMeier({{10, true}, {20, true}, {30, false}, {40, false}});
  EXPECT_DOUBLE_EQ(*curve.median, 20);
  EXPECT_DOUBLE_EQ(*curve.median_lower, 10);
  EXPECT_FALSE(curve.median_upper.has_value());
  const KaplanMeierCurve longer = EstimateKaplanMeier({{10, true}, {20, true}, {30, false}, {90, false}});
  EXPECT_DOUBLE_EQ(*longer.median, 20);
}

TEST(KaplanMeierTest, MedianNeverReachedWhenMostRunsAreCensored) {
  const KaplanMeierCurve curve = EstimateKaplanMeier({{1, true}, {2, false}, {3, false}, {4, false}});
  ASSERT_EQ(curve.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(curve.steps[0].survival, 0.75);
  EXPECT_FALSE(curve.median.has_value());
  EXPECT_FALSE(curve.median_upper.has_value());
}

TEST(KaplanMeierTest, TiesOfEventsAndCensoringAtOneTime) {
  // At time 5 a censored run still counts as at risk: 4 at risk, 2 events -> 0.5.
  const KaplanMeierCurve curve = EstimateKaplanMeier({{5, true}, {5, true}, {5, false}, {9, true}});
  ASSERT_EQ(curve.steps.size(), 2u);
  EXPECT_EQ(curve.steps[0].at_risk, 4u);
  EXPECT_DOUBLE_EQ(curve.steps[0].survival, 0.5);
  EXPECT_EQ(curve.steps[1].at_risk, 1u);
  EXPECT_DOUBLE_EQ(curve.steps[1].survival, 0);
  EXPECT_DOUBLE_EQ(*curve.median, 7);  // flat at 0.5 from 5 until 9
}

TEST(KaplanMeierTest, RejectsNonFiniteTimesAndBadAlpha) {
  EXPECT_THROW(EstimateKaplanMeier({{std::nan(""), true}}), std::invalid_argument);
  EXPECT_THROW(EstimateKaplanMeier(WorkedExample(), 0), std::invalid_argument);
}

TEST(LogRankTest, WorkedExampleFirstFiveAgainstLastFive) {
  const auto all = WorkedExample();
  const std::vector<SurvivalObservation> first(all.begin(), all.begin() + 5);
  const std::vector<SurvivalObservation> last(all.begin() + 5, all.end());
  const LogRankResult r = LogRankTest(first, last);
  EXPECT_NEAR(r.chi_square, 6.1, 0.05);
  EXPECT_EQ(r.degrees_of_freedom, 1);
  // p = P(chi2(1) > chi_square) = erfc(sqrt(chi_square / 2)).
  EXPECT_NEAR(r.p_value, std::erfc(std::sqrt(r.chi_square / 2)), 1e-10);
  EXPECT_LT(r.p_value, 0.05);
  const LogRankResult swapped = LogRankTest(last, first);
  EXPECT_NEAR(swapped.chi_square, r.chi_square, 1e-12);
}

TEST(LogRankTest, IdenticalGroupsAndDegenerateInput) {
  const auto all = WorkedExample();
  EXPECT_NEAR(LogRankTest(all, all).chi_square, 0, 1e-12);
  EXPECT_NEAR(LogRankTest(all, all).p_value, 1, 1e-12);
  const LogRankResult empty = LogRankTest({}, all);
  EXPECT_DOUBLE_EQ(empty.chi_square, 0);
  EXPECT_DOUBLE_EQ(empty.p_value, 1);
  const LogRankResult no_events = LogRankTest({{1, false}}, {{2, false}});
  EXPECT_DOUBLE_EQ(no_events.p_value, 1);
}

}  // namespace
}  // namespace evalsuite::stats
