#include "stats/median_ratio.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace evalsuite::stats {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// numpy's default ("linear") quantile of sorted values; infinities propagate as they should for a bound.
double SortedQuantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  if (fraction == 0 || sorted[below] == sorted[above]) return sorted[below];
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

std::optional<double> KaplanMeierMedian(std::vector<SurvivalObservation> observations) {
  constexpr double kTolerance = 1.4901161193847656e-08;  // R's sqrt(.Machine$double.eps), as survival.cpp
  std::sort(observations.begin(), observations.end(),
            [](const SurvivalObservation& x, const SurvivalObservation& y) { return x.time < y.time; });
  double survival = 1;
  double at_risk = static_cast<double>(observations.size());
  std::optional<double> at_half;  // S sits exactly at 0.5 since this event time
  for (std::size_t i = 0; i < observations.size();) {
    const double time = observations[i].time;
    double events = 0, leaving = 0;
    for (; i < observations.size() && observations[i].time == time; ++i, ++leaving) {
      events += observations[i].event ? 1 : 0;
    }
    if (events > 0) {
      if (at_half) return (*at_half + time) / 2;  // dropped below one half after a flat stretch at it
      survival *= (at_risk - events) / at_risk;
      if (std::abs(survival - 0.5) < kTolerance) {
        at_half = time;
      } else if (survival < 0.5) {
        return time;
      }
    }
    at_risk -= leaving;
  }
  return at_half;  // stays at one half to the end: the first time it got there (nullopt: never)
}

MedianRatio BootstrapMedianRatio(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b,
                                 double alpha, std::size_t resamples, std::uint64_t seed) {
  if (a.empty() || b.empty()) throw std::invalid_argument("median ratio: both groups need runs");
  MedianRatio result;
  result.alpha = alpha;
  result.resamples = resamples;
  result.seed = seed;
  result.median_a = KaplanMeierMedian(a);
  result.median_b = KaplanMeierMedian(b);
  if (result.median_a && result.median_b) result.ratio = *result.median_a / *result.median_b;
  // Same engine and index rule as stats/improvement.cpp: reproducible on every standard library.
  std::mt19937_64 engine(seed);
  std::vector<SurvivalObservation> ra(a.size()), rb(b.size());
  std::vector<double> ratios;
  ratios.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    for (auto& o : ra) o = a[engine() % a.size()];
    for (auto& o : rb) o = b[engine() % b.size()];
    const std::optional<double> ma = KaplanMeierMedian(ra), mb = KaplanMeierMedian(rb);
    if (!ma && !mb) {
      ++result.undefined_resamples;
      continue;
    }
    ratios.push_back(!ma ? kInfinity : !mb ? 0.0 : *ma / *mb);
  }
  if (std::min(a.size(), b.size()) < kMedianRatioIntervalMinRuns) {
    result.withheld = "interval withheld: it needs at least " + std::to_string(kMedianRatioIntervalMinRuns) +
                      " runs of each entry; from fewer, a 95% bootstrap interval covers the true ratio only about 65% "
                      "of the time at 2 runs and 89% at 3";
    return result;
  }
  if (ratios.empty() || static_cast<double>(result.undefined_resamples) > alpha * static_cast<double>(resamples)) {
    result.withheld = "interval withheld: neither median is reached in " + std::to_string(result.undefined_resamples) +
                      " of " + std::to_string(resamples) +
                      " resamples, so the ratio rests on too few of them; more runs that reach the target are needed";
    return result;
  }
  std::sort(ratios.begin(), ratios.end());
  const Interval interval{SortedQuantile(ratios, alpha / 2), SortedQuantile(ratios, 1 - alpha / 2)};
  result.interval = interval;
  if (interval.lower > 0 && std::isfinite(interval.upper)) {
    const double z = boost::math::quantile(boost::math::normal(), 1 - alpha / 2);
    result.log_standard_error = (std::log(interval.upper) - std::log(interval.lower)) / (2 * z);
  }
  return result;
}

}  // namespace evalsuite::stats
