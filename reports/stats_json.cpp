#include "reports/stats_json.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "common/json_number.h"

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

json KaplanMeierJson(const stats::KaplanMeierCurve& curve, KaplanMeierDetail detail) {
  if (detail == KaplanMeierDetail::kMedianOnly) {
    return {{"survival_of", "share of runs not yet at the target"},
            {"median", JsonNumber(curve.median)},
            {"median_lower", JsonNumber(curve.median_lower)},
            {"median_upper", JsonNumber(curve.median_upper)}};
  }
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

json StabilityStatsJson(const stats::StabilityStats& stats, KaplanMeierDetail detail) {
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
          {"kaplan_meier", KaplanMeierJson(stats.time_to_target, detail)},
          {"consecutive_evaluations", stats.consecutive},
          {"resolution", JsonNumber(stats.resolution)},
          {"grid_coarser_than_spread", stats.grid_coarser_than_spread}};
}

std::vector<stats::StatisticValue> StatisticValues(const stats::EntryStatistics& entry) {
  std::vector<stats::StatisticValue> values;
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    values.push_back(statistic.compute(entry));
  }
  return values;
}

json StatisticsRowJson(const std::vector<stats::StatisticValue>& values) {
  json row = json::object();
  const std::vector<stats::StabilityStatistic>& statistics = stats::StabilityStatistics();
  for (std::size_t i = 0; i < statistics.size() && i < values.size(); ++i) {
    const stats::StabilityStatistic& statistic = statistics[i];
    const stats::StatisticValue& value = values[i];
    // Counts stay integers in report.json ("runs": 5, not 5.0).
    if (statistic.form == stats::StatisticForm::kCount) {
      row[statistic.key] = value.value ? json(static_cast<std::size_t>(*value.value)) : json(nullptr);
    } else {
      row[statistic.key] = JsonNumber(value.value);
    }
    if (statistic.has_interval) {
      row[statistic.key + "_lower"] = value.interval ? JsonNumber(value.interval->lower) : json(nullptr);
      row[statistic.key + "_upper"] = value.interval ? JsonNumber(value.interval->upper) : json(nullptr);
    }
    if (statistic.states_basis) row[statistic.key + "_basis"] = value.basis;
    if (!statistic.flag_key.empty()) row[statistic.flag_key] = value.coarse ? json(*value.coarse) : json(nullptr);
  }
  return row;
}

json VerdictJson(const stats::StabilityVerdict& verdict) {
  json criteria = json::array();
  for (const stats::StabilityCriterion& c : verdict.criteria) {
    criteria.push_back({{"criterion", c.name}, {"outcome", c.outcome}, {"detail", c.detail}});
  }
  auto count = [](const std::optional<std::size_t>& n) { return n ? json(*n) : json(nullptr); };
  return {{"stable", verdict.stable},
          {"result", verdict.result},
          {"criteria", std::move(criteria)},
          {"reasons", verdict.reasons},
          {"reached_runs_needed", count(verdict.reached_runs_needed)},
          {"reached_runs_even_odds", count(verdict.reached_runs_even_odds)},
          {"assurance", JsonNumber(verdict.assurance)}};
}

namespace {

// The basis named first: which figure the criteria's CoV is of.
std::string BasisSentence(const stats::StabilityRule& rule) {
  if (rule.basis == stats::kBasisEpochs) {
    return "Basis: epochs to target ([stability] basis = \"epochs\"): the CoV below is of epochs to target, which "
           "leaves the machine's speed out; TTA's figures are shown beside it. ";
  }
  return "Basis: time (TTA, DAWNBench's definition; [stability] basis = \"epochs\" judges epochs to target "
         "instead). ";
}

}  // namespace

json RuleJson(const stats::StabilityRule& rule) {
  return {{"max_cov_upper", JsonNumber(rule.max_cov_upper)},
          {"min_hit_rate", JsonNumber(rule.min_hit_rate)},
          {"min_reached", rule.min_reached},
          {"consecutive_evaluations", rule.consecutive_evaluations},
          {"assurance", JsonNumber(rule.assurance)},
          {"basis", rule.basis},
          {"statement", RuleStatement(rule)}};
}

std::string RuleStatement(const stats::StabilityRule& rule) {
  const std::string crossing =
      rule.consecutive_evaluations <= 1
          ? std::string("TTA is the training time at the first evaluation at or above the target (DAWNBench).")
          : fmt::format(
                "TTA is the training time at the first of {} consecutive evaluations at or above the target "
                "(a single lucky evaluation does not count; DAWNBench's default is the first crossing).",
                rule.consecutive_evaluations);
  // By its interval, n of n runs reaching clear the minimum only when Clopper-Pearson's lower bound (0.025)^(1/n)
  // does: n >= ln(0.025) / ln(min_hit_rate).
  std::string all_runs_needed = "by its interval no number of runs could show a 100% minimum";
  if (rule.min_hit_rate > 0 && rule.min_hit_rate < 1) {
    const double n = std::ceil(std::log(0.025) / std::log(rule.min_hit_rate) - 1e-9);
    all_runs_needed = fmt::format("by its interval a {0:g}% minimum would need {1:.0f} of {1:.0f} runs to reach",
                                  rule.min_hit_rate * 100, n);
  }
  return fmt::format(
      "{6}{3} Each criterion is satisfied, NOT satisfied or can't tell. (1) CoV of TTA: satisfied when the upper "
      "bound of its 95% interval (Vangel's modified McKay interval, Vangel 1996) is at most {0:g}%, NOT "
      "satisfied when even the lower bound is above it, can't tell otherwise. (2) Hit rate: satisfied when "
      "at least {1:g}% of the runs reach the target, judged by the point estimate, not by its interval; NOT "
      "satisfied when even the upper bound of its 95% Clopper-Pearson interval (Clopper and Pearson 1934) "
      "is below {1:g}%, can't tell otherwise. The rule is asymmetric on purpose: the CoV must be shown low, "
      "the hit rate only measured high ({5}). "
      "(3) At least {2} runs reach the target (can't tell with fewer). An entry is STABLE when every "
      "criterion is satisfied, NOT STABLE when one is NOT satisfied, and INCONCLUSIVE otherwise. How many "
      "runs would tell is the number that brings the CoV's upper bound within {0:g}% with {4:g}% "
      "probability if the true CoV is the measured one (the sample CoV's sampling distribution by McKay's "
      "chi-square approximation).",
      rule.max_cov_upper * 100, rule.min_hit_rate * 100, rule.min_reached, crossing, rule.assurance * 100,
      all_runs_needed, BasisSentence(rule));
}

}  // namespace evalsuite::reports
