// Ratio of two groups' median time to target (A over B) with a percentile bootstrap interval (Efron and
// Tibshirani 1993, ch. 13; runs resampled with replacement within each group, censoring kept). Each median is the
// Kaplan-Meier median as R's print.survfit reports it (stats/survival.h): the plain sample median when every run
// reached, and "not reached" when fewer than half did. A resample whose numerator median is not reached counts as
// an infinitely large ratio, one whose denominator is not reached as 0; one where neither is reached has no ratio
// and is left out (counted in `undefined_resamples`). An interval bound beyond the resamples' range is infinite.
// The interval is withheld (nullopt, with the reason) where it cannot keep its level: with fewer than
// kMedianRatioIntervalMinRuns runs of a group (simulated coverage of the 95% interval: 65% at 2 runs per entry,
// 89% at 3, within simulation error of 95% from 5 on, tests/stats/comparison_coverage_test.cpp), and when more than
// alpha of the resamples leave the ratio undefined (the interval would describe only the few that define it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/interval.h"
#include "stats/survival.h"

namespace evalsuite::stats {

// The Kaplan-Meier median (same rule as EstimateKaplanMeier's, without the bands): nullopt when not reached.
std::optional<double> KaplanMeierMedian(std::vector<SurvivalObservation> observations);

inline constexpr std::size_t kMedianRatioIntervalMinRuns = 5;

struct MedianRatio {
  std::optional<double> median_a;
  std::optional<double> median_b;
  std::optional<double> ratio;       // median_a / median_b; nullopt unless both are reached
  std::optional<Interval> interval;  // 100 (1 - alpha)%; bounds may be 0 or +infinity (unbounded); nullopt: withheld
  std::string withheld;              // why the interval is not given (empty when it is)
  double alpha = 0.05;
  std::size_t resamples = 0;
  std::size_t undefined_resamples = 0;
  std::uint64_t seed = 0;
  // The ratio's standard error on the log scale, (log upper - log lower) / (2 z): nullopt when a bound is 0 or
  // infinite, or the interval is withheld.
  std::optional<double> log_standard_error;
};

// Both groups must be non-empty (std::invalid_argument otherwise).
MedianRatio BootstrapMedianRatio(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b,
                                 double alpha = 0.05, std::size_t resamples = 4000, std::uint64_t seed = 20240528);

}  // namespace evalsuite::stats
