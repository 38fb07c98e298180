#include "stats/survival.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include "stats/not_a_number.h"

namespace evalsuite::stats {
namespace {

std::vector<SurvivalObservation> SortedByTime(std::vector<SurvivalObservation> observations) {
  for (const auto& o : observations) {
    if (!std::isfinite(o.time)) {
      throw std::invalid_argument("Kaplan-Meier: observation times must be finite");
    }
  }
  std::sort(observations.begin(), observations.end(),
            [](const SurvivalObservation& x, const SurvivalObservation& y) { return x.time < y.time; });
  return observations;
}

// The curve without repeated y values (R's duplicated(), where NaN repeats NaN), keeping the first. The values seen
// are kept in a set (0 and -0 are one value there, as for ==): a curve has a step per run that reached, and looking
// back over every kept value made a 5,000-run entry's medians take seconds.
void DropRepeats(const std::vector<double>& x, const std::vector<double>& y, std::vector<double>& ux,
                 std::vector<double>& uy) {
  std::set<double> seen;
  bool seen_nan = false;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const bool repeat = std::isnan(y[i]) ? std::exchange(seen_nan, true) : !seen.insert(y[i]).second;
    if (!repeat) {
      ux.push_back(x[i]);
      uy.push_back(y[i]);
    }
  }
}

// approx(y + shift, seq_along(y), p, method = "constant", f = 1) in R: the index of the knot at p, or of the
// next knot above p; NaN knots are left out; nullopt outside the knots' range.
std::optional<std::size_t> ConstantStepIndex(const std::vector<double>& y, double shift, double p) {
  std::vector<std::pair<double, std::size_t>> knots;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!std::isnan(y[i])) {
      knots.emplace_back(y[i] + shift, i);
    }
  }
  std::sort(knots.begin(), knots.end());
  if (knots.empty() || p < knots.front().first || p > knots.back().first) {
    return std::nullopt;
  }
  const auto at_or_above = std::find_if(knots.begin(), knots.end(), [&](const auto& knot) { return knot.first >= p; });
  return at_or_above->second;
}

// The median as R's print.survfit reports it (survmean's minmin): where the horizontal line at probability p
// meets the CDF y = 1 - S drawn over x. A curve that sits exactly at p over a flat stretch and drops below it
// later gives the stretch's midpoint (the usual rule for medians); one that stays at p to its end gives the first
// time it got there, the first time survival is at or below one half. (quantile.survfit takes the midpoint with
// the last observed time instead: a time at which nothing happened, which moves with a censored run's budget.)
// NaN values (bands undefined at S = 0 or 1) are skipped; a curve that never gets to p gives nullopt (R: NA).
std::optional<double> FindQuantile(const std::vector<double>& x, const std::vector<double>& y, double p) {
  constexpr double kTolerance = 1.4901161193847656e-08;  // sqrt(.Machine$double.eps), R's default
  const bool reaches_p = std::any_of(y.begin(), y.end(), [&](double v) { return !std::isnan(v) && v >= p; });
  if (!reaches_p) {
    return std::nullopt;
  }
  std::vector<double> ux;
  std::vector<double> uy;
  DropRepeats(x, y, ux, uy);
  const auto i1 = ConstantStepIndex(uy, kTolerance, p);
  const auto i2 = ConstantStepIndex(uy, -kTolerance, p);
  if (!i1) {
    return std::nullopt;
  }
  if (!std::isnan(uy.back()) && std::abs(p - uy.back()) < kTolerance) {
    return ux[*i1];
  }
  if (!i2) {
    return std::nullopt;
  }
  return (ux[*i1] + ux[*i2]) / 2;
}

}  // namespace

KaplanMeierCurve EstimateKaplanMeier(const std::vector<SurvivalObservation>& observations, double alpha) {
  if (!(alpha > 0 && alpha < 1)) {
    throw std::invalid_argument("EstimateKaplanMeier: alpha must lie in (0, 1)");
  }
  const std::vector<SurvivalObservation> sorted = SortedByTime(observations);
  const double z = boost::math::quantile(boost::math::normal(), 1 - alpha / 2);

  KaplanMeierCurve curve;
  if (sorted.empty()) {
    return curve;
  }
  double survival = 1;
  double greenwood = 0;  // running sum of d / (n (n - d)): the variance of log S
  std::size_t at_risk = sorted.size();
  for (std::size_t i = 0; i < sorted.size();) {
    const double time = sorted[i].time;
    std::size_t events = 0;
    std::size_t leaving = 0;
    for (; i < sorted.size() && sorted[i].time == time; ++i, ++leaving) {
      if (sorted[i].event) {
        ++events;
      }
    }
    if (events > 0) {
      const double n = static_cast<double>(at_risk);
      const double d = static_cast<double>(events);
      survival *= (n - d) / n;
      KaplanMeierStep step;
      step.time = time;
      step.at_risk = at_risk;
      step.events = events;
      step.survival = survival;
      if (events < at_risk) {
        greenwood += d / (n * (n - d));
        // log-log band: log(-log S) +- z * se(log S) / |log S|, mapped back.
        const double log_s = std::log(survival);
        const double shift = z * std::sqrt(greenwood) / -log_s;
        step.lower = std::exp(-std::exp(std::log(-log_s) + shift));
        step.upper = std::exp(-std::exp(std::log(-log_s) - shift));
      } else {
        step.lower = step.upper = 0;  // R reports NA here; the median's interval treats it so
      }
      curve.steps.push_back(step);
    }
    at_risk -= leaving;
  }

  // survfit's quantile: the curves start at (0, S = 1), then one point per event time.
  std::vector<double> x{0};
  std::vector<double> y_surv{0};
  std::vector<double> y_lower{0};
  std::vector<double> y_upper{0};
  for (const KaplanMeierStep& s : curve.steps) {
    x.push_back(s.time);
    y_surv.push_back(1 - s.survival);
    const bool band_defined = s.survival > 0;
    y_lower.push_back(band_defined ? 1 - s.lower : kNaN);
    y_upper.push_back(band_defined ? 1 - s.upper : kNaN);
  }
  curve.median = FindQuantile(x, y_surv, 0.5);
  curve.median_lower = FindQuantile(x, y_lower, 0.5);
  curve.median_upper = FindQuantile(x, y_upper, 0.5);
  return curve;
}

LogRankResult LogRankTest(const std::vector<SurvivalObservation>& group_a,
                          const std::vector<SurvivalObservation>& group_b) {
  struct Tagged {
    double time;
    bool event;
    bool in_a;
  };
  std::vector<Tagged> all;
  all.reserve(group_a.size() + group_b.size());
  for (const auto& o : group_a) {
    all.push_back({o.time, o.event, true});
  }
  for (const auto& o : group_b) {
    all.push_back({o.time, o.event, false});
  }
  std::sort(all.begin(), all.end(), [](const Tagged& x, const Tagged& y) { return x.time < y.time; });

  double at_risk_a = static_cast<double>(group_a.size());
  double at_risk = static_cast<double>(all.size());
  double observed_minus_expected = 0;
  double observed_a = 0;
  double variance = 0;
  double cumulative_hazard = 0;  // Nelson-Aalen, pooled: the log-rank score of a run is event - H(its time)
  double squared_scores = 0;
  for (std::size_t i = 0; i < all.size();) {
    const double time = all[i].time;
    const std::size_t block = i;
    double events = 0;
    double events_a = 0;
    double leaving = 0;
    double leaving_a = 0;
    for (; i < all.size() && all[i].time == time; ++i) {
      leaving += 1;
      if (all[i].in_a) {
        leaving_a += 1;
      }
      if (all[i].event) {
        events += 1;
        if (all[i].in_a) {
          events_a += 1;
        }
      }
    }
    if (events > 0) {
      const double share_a = at_risk_a / at_risk;
      observed_minus_expected += events_a - events * share_a;
      observed_a += events_a;
      // Hypergeometric variance, as survdiff computes it (ties handled exactly).
      if (at_risk > 1) {
        variance += events * share_a * (1 - share_a) * (at_risk - events) / (at_risk - 1);
      }
      cumulative_hazard += events / at_risk;
    }
    for (std::size_t j = block; j < i; ++j) {
      const double score = (all[j].event ? 1.0 : 0.0) - cumulative_hazard;
      squared_scores += score * score;
    }
    at_risk -= leaving;
    at_risk_a -= leaving_a;
  }
  LogRankResult result;
  result.variance = variance;
  const double n = static_cast<double>(all.size());
  if (n > 1) {
    result.permutation_variance =
        static_cast<double>(group_a.size()) * static_cast<double>(group_b.size()) / (n * (n - 1)) * squared_scores;
  }
  if (result.permutation_variance > 0) {
    result.permutation_z = observed_minus_expected / std::sqrt(result.permutation_variance);
    result.permutation_p_value =
        2 * boost::math::cdf(boost::math::complement(boost::math::normal(), std::abs(result.permutation_z)));
  }
  result.observed_a = observed_a;
  result.expected_a = observed_a - observed_minus_expected;
  if (variance > 0) {
    result.z = observed_minus_expected / std::sqrt(variance);
    result.chi_square = observed_minus_expected * observed_minus_expected / variance;
    result.p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(1), result.chi_square));
  }
  return result;
}

}  // namespace evalsuite::stats
