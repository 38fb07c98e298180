#include "stats/restricted_mean.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace evalsuite::stats {

RestrictedMean RestrictedMeanTime(const std::vector<SurvivalObservation>& observations, double horizon) {
  if (observations.empty()) throw std::invalid_argument("restricted mean: a group without runs");
  if (!(horizon > 0) || !std::isfinite(horizon)) throw std::invalid_argument("restricted mean: horizon must be > 0");
  std::vector<SurvivalObservation> sorted = observations;
  for (const auto& o : sorted) {
    if (!std::isfinite(o.time)) throw std::invalid_argument("restricted mean: observation times must be finite");
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const SurvivalObservation& x, const SurvivalObservation& y) { return x.time < y.time; });
  // The Kaplan-Meier steps up to the horizon: (time, at risk, events, survival after).
  struct Step {
    double time, at_risk, events, survival;
  };
  std::vector<Step> steps;
  double survival = 1;
  double at_risk = static_cast<double>(sorted.size());
  for (std::size_t i = 0; i < sorted.size();) {
    const double time = sorted[i].time;
    double events = 0, leaving = 0;
    for (; i < sorted.size() && sorted[i].time == time; ++i, ++leaving) events += sorted[i].event ? 1 : 0;
    if (events > 0 && time <= horizon) {
      survival *= (at_risk - events) / at_risk;
      steps.push_back({time, at_risk, events, survival});
    }
    at_risk -= leaving;
  }
  // Area under the step curve from 0 to tau, and the area from each event time to tau (A_i).
  RestrictedMean result;
  result.horizon = horizon;
  double previous_time = 0, previous_survival = 1, area = 0;
  for (const Step& s : steps) {
    area += previous_survival * (s.time - previous_time);
    previous_time = s.time;
    previous_survival = s.survival;
  }
  area += previous_survival * (horizon - previous_time);
  result.mean = area;
  double variance = 0;
  double area_after = previous_survival * (horizon - previous_time);  // A_i for the last step
  for (std::size_t k = steps.size(); k-- > 0;) {
    const Step& s = steps[k];
    if (s.at_risk > s.events) variance += area_after * area_after * s.events / (s.at_risk * (s.at_risk - s.events));
    const double before = k == 0 ? 0 : steps[k - 1].time;
    const double survival_before = k == 0 ? 1 : steps[k - 1].survival;
    area_after += survival_before * (s.time - before);
  }
  result.standard_error = std::sqrt(variance);
  return result;
}

double DefaultHorizon(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b) {
  auto last = [](const std::vector<SurvivalObservation>& g) {
    double m = 0;
    for (const auto& o : g) m = std::max(m, o.time);
    return m;
  };
  return std::min(last(a), last(b));
}

RestrictedMeanDifference CompareRestrictedMeans(const std::vector<SurvivalObservation>& a,
                                                const std::vector<SurvivalObservation>& b, double horizon,
                                                double alpha) {
  RestrictedMeanDifference d;
  d.a = RestrictedMeanTime(a, horizon);
  d.b = RestrictedMeanTime(b, horizon);
  d.difference = d.a.mean - d.b.mean;
  const double se = std::hypot(d.a.standard_error, d.b.standard_error);
  const boost::math::normal normal;
  const double z = boost::math::quantile(normal, 1 - alpha / 2);
  d.interval = {d.difference - z * se, d.difference + z * se};
  if (se > 0) {
    d.p_value = 2 * boost::math::cdf(boost::math::complement(normal, std::abs(d.difference) / se));
  } else {
    d.p_value = d.difference == 0 ? 1 : 0;
  }
  return d;
}

}  // namespace evalsuite::stats
