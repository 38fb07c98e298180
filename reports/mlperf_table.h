// The MLPerf view of an imported entry (its `extra` as `evalsuite import` stores it, mlperf_group.h): ruleset,
// division, raw olympic score, RCP verdict with its reference, official score, and the runs that do not count with
// the reason. Shared by the Markdown and HTML renderers.
#pragma once

#include <nlohmann/json.hpp>

#include "reports/report_table.h"

namespace evalsuite::reports {

// True when the entry's extra holds the importer's MLPerf facts.
bool HasMlperfFacts(const nlohmann::json& extra);
// Two columns: fact, value.
ReportTable MlperfScoreTable(const nlohmann::json& extra);
// Runs that did not count: file, status, reason (empty when every run counted).
ReportTable MlperfDroppedRunsTable(const nlohmann::json& extra);

}  // namespace evalsuite::reports
