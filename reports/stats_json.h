// The statistics of stats/ as report-model JSON: every field of the struct, non-finite values as null
// (json_number.h). An interval's null upper bound means unbounded (Vangel's CoV interval can be open).
#pragma once

#include <nlohmann/json.hpp>

#include "stats/descriptive.h"
#include "stats/interval.h"
#include "stats/stability.h"
#include "stats/survival.h"

namespace evalsuite::reports {

nlohmann::json IntervalJson(const stats::Interval& interval);
nlohmann::json SummaryJson(const stats::Summary& summary);
nlohmann::json KaplanMeierJson(const stats::KaplanMeierCurve& curve);
nlohmann::json StabilityStatsJson(const stats::StabilityStats& stats);
nlohmann::json VerdictJson(const stats::StabilityVerdict& verdict);
nlohmann::json RuleJson(const stats::StabilityRule& rule);

}  // namespace evalsuite::reports
