#include "reports/stats_json.h"

#include <fmt/format.h>

#include "reports/json_number.h"

namespace evalsuite::reports {
using nlohmann::json;

json IntervalJson(const stats::Interval& interval) {
  return {{"lower", JsonNumber(interval.lower)}, {"upper", JsonNumber(interval.upper)}};
}

json SummaryJson(const stats::Summary& summary) {
  return {{"n", summary.n},
          {"mean", JsonNumber(summary.mean)},
          {"median", JsonNumber(summary.median)},
          {"stddev", JsonNumber(summary.stddev)},
          {"min", JsonNumber(summary.min)},
          {"max", JsonNumber(summary.max)}};
}

json KaplanMeierJson(const stats::KaplanMeierCurve& curve) {
  json steps = json::array();
  for (const auto& step : curve.steps) {
    steps.push_back({{"time", JsonNumber(step.time)},
                     {"at_risk", step.at_risk},
                     {"events", step.events},
                     {"survival", JsonNumber(step.survival)},
                     {"lower", JsonNumber(step.lower)},
                     {"upper", JsonNumber(step.upper)}});
  }
  return {{"survival_of", "share of runs not yet at the target"},
          {"band", "log-log (R survfit conf.type = \"log-log\"); 0 where survival is 0 (R: NA)"},
          {"steps", std::move(steps)},
          {"median", JsonNumber(curve.median)},
          {"median_lower", JsonNumber(curve.median_lower)},
          {"median_upper", JsonNumber(curve.median_upper)}};
}

json StabilityStatsJson(const stats::StabilityStats& stats) {
  json tta = json::array();
  for (const auto& value : stats.tta) tta.push_back(JsonNumber(value));
  return {{"threshold", JsonNumber(stats.threshold)},
          {"alpha", JsonNumber(stats.alpha)},
          {"runs", stats.runs},
          {"reached", stats.reached},
          {"tta", std::move(tta)},
          {"tta_summary", SummaryJson(stats.tta_summary)},
          {"cov", JsonNumber(stats.cov)},
          {"cov_interval", stats.cov_interval ? IntervalJson(*stats.cov_interval) : json(nullptr)},
          {"hit_rate", JsonNumber(stats.hit_rate)},
          {"hit_rate_interval", IntervalJson(stats.hit_rate_interval)},
          {"olympic_mean", JsonNumber(stats.olympic_mean)},
          {"ert", JsonNumber(stats.ert)},
          {"kaplan_meier", KaplanMeierJson(stats.time_to_target)}};
}

json VerdictJson(const stats::StabilityVerdict& verdict) {
  return {{"stable", verdict.stable},
          {"result", verdict.result},
          {"reasons", verdict.reasons},
          {"reached_runs_needed", verdict.reached_runs_needed ? json(*verdict.reached_runs_needed) : json(nullptr)}};
}

json RuleJson(const stats::StabilityRule& rule) {
  return {{"max_cov_upper", JsonNumber(rule.max_cov_upper)},
          {"min_hit_rate", JsonNumber(rule.min_hit_rate)},
          {"min_reached", rule.min_reached},
          {"statement", fmt::format("An entry is STABLE when the upper bound of the 95% interval of the CoV of its "
                                    "TTA is at most {0:g}%, at least {1:g}% of its runs reach the target, and at least "
                                    "{2} runs reach it. It is NOT STABLE when an interval shows a rule broken (the "
                                    "CoV's lower bound above {0:g}%, or the hit rate's upper bound below {1:g}%), and "
                                    "INCONCLUSIVE otherwise: too few runs to tell either way.",
                                    rule.max_cov_upper * 100, rule.min_hit_rate * 100, rule.min_reached)}};
}

}  // namespace evalsuite::reports
