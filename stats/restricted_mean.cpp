#include "stats/restricted_mean.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

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
  // A curve whose longest run reached is 0 from there on (FollowUpEnd is +infinity): it is known at any horizon, so
  // only a curve cut by a run still below the target limits the horizon. Both known everywhere: up to the longer
  // entry's last run, where both curves are 0 and each restricted mean is the entry's whole mean TTA.
  const double end = std::min(FollowUpEnd(a), FollowUpEnd(b));
  return std::isfinite(end) ? end : std::max(last(a), last(b));
}

double FollowUpEnd(const std::vector<SurvivalObservation>& observations) {
  double last = 0;
  for (const auto& o : observations) last = std::max(last, o.time);
  // Still at risk at the last time and not all reaching there: the curve stays above 0 past it, unknown how.
  for (const auto& o : observations) {
    if (o.time == last && !o.event) return last;
  }
  return std::numeric_limits<double>::infinity();
}

RestrictedMeanDifference CompareRestrictedMeans(const std::vector<SurvivalObservation>& a,
                                                const std::vector<SurvivalObservation>& b, double horizon, double alpha,
                                                const std::string& name_a, const std::string& name_b) {
  RestrictedMeanDifference d;
  d.a = RestrictedMeanTime(a, horizon);
  d.b = RestrictedMeanTime(b, horizon);
  d.difference = d.a.mean - d.b.mean;
  auto reached_after = [horizon](const std::vector<SurvivalObservation>& g) {
    return static_cast<std::size_t>(std::count_if(
        g.begin(), g.end(), [horizon](const SurvivalObservation& o) { return o.event && o.time > horizon; }));
  };
  d.reached_after_horizon_a = reached_after(a);
  d.reached_after_horizon_b = reached_after(b);
  auto reached_by = [horizon](const std::vector<SurvivalObservation>& g) {
    return std::any_of(g.begin(), g.end(),
                       [horizon](const SurvivalObservation& o) { return o.event && o.time <= horizon; });
  };
  if (std::min(a.size(), b.size()) < kRestrictedMeanIntervalMinRuns) {
    d.withheld = "interval withheld: it needs at least " + std::to_string(kRestrictedMeanIntervalMinRuns) +
                 " runs of each entry";
    return d;
  }
  if (!reached_by(a) && !reached_by(b)) {
    d.withheld = "withheld: no run of " + name_a + " or " + name_b +
                 " reached the target by the horizon, so both restricted means are the horizon itself and their "
                 "difference 0 says nothing; choose a horizon after some runs reached";
    return d;
  }
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = d.a.standard_error * d.a.standard_error * na / (na - 1);
  const double vb = d.b.standard_error * d.b.standard_error * nb / (nb - 1);
  const double variance = va + vb;
  if (!(variance > 0)) {
    d.withheld = "withheld: the runs up to the horizon show no spread to estimate its uncertainty from";
    return d;
  }
  d.degrees_of_freedom = variance * variance / (va * va / (na - 1) + vb * vb / (nb - 1));
  const boost::math::students_t t(d.degrees_of_freedom);
  const double q = boost::math::quantile(t, 1 - alpha / 2);
  const double se = std::sqrt(variance);
  d.interval = Interval{d.difference - q * se, d.difference + q * se};
  d.p_value = 2 * boost::math::cdf(boost::math::complement(t, std::abs(d.difference) / se));
  return d;
}

std::string HorizonTruncationText(const RestrictedMeanDifference& d, const std::string& name_a,
                                  const std::string& name_b) {
  std::string parts;
  auto add = [&](std::size_t n, const std::string& name) {
    if (n == 0) return;
    parts += (parts.empty() ? "" : " and ") + std::to_string(n) + " run(s) of " + name;
  };
  add(d.reached_after_horizon_a, name_a);
  add(d.reached_after_horizon_b, name_b);
  if (parts.empty()) return "";
  return "truncated: " + parts +
         " reached the target after the horizon and count only up to it, so these are not "
         "the mean TTAs";
}

}  // namespace evalsuite::stats
