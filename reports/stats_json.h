// The statistics of stats/ as report-model JSON: every field of the struct, non-finite values as null
// (json_number.h). An interval's null upper bound means unbounded (Vangel's CoV interval can be open). An entry's
// row of the Tables 2-3 view holds every statistic of stats/stability_statistics.h under that table's keys.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stats/descriptive.h"
#include "stats/interval.h"
#include "stats/stability.h"
#include "stats/stability_statistics.h"
#include "stats/survival.h"

namespace evalsuite::reports {

nlohmann::json IntervalJson(const stats::Interval& interval);
nlohmann::json SummaryJson(const stats::Summary& summary);
// What a Kaplan-Meier curve's JSON holds: every step, or its median with the median's interval only. The threshold
// sensitivity rows take the median alone: a list of steps per threshold, each as long as the runs that reach, was most
// of report.json (27 MB of 20 entries x 500 runs); the entry's curve at the target, which its chart draws, keeps them.
enum class KaplanMeierDetail { kSteps, kMedianOnly };

nlohmann::json KaplanMeierJson(const stats::KaplanMeierCurve& curve,
                               KaplanMeierDetail detail = KaplanMeierDetail::kSteps);
nlohmann::json StabilityStatsJson(const stats::StabilityStats& stats,
                                  KaplanMeierDetail detail = KaplanMeierDetail::kSteps);
nlohmann::json VerdictJson(const stats::StabilityVerdict& verdict);
nlohmann::json RuleJson(const stats::StabilityRule& rule);
// The rule as the report states it above the verdict cards (RuleJson's "statement").
std::string RuleStatement(const stats::StabilityRule& rule);
// Every statistic of stats::StabilityStatistics() for one entry, in that table's order.
std::vector<stats::StatisticValue> StatisticValues(const stats::EntryStatistics& entry);
// Those values under the table's keys: key, key_lower/key_upper, key_basis, flag_key.
nlohmann::json StatisticsRowJson(const std::vector<stats::StatisticValue>& values);

}  // namespace evalsuite::reports
