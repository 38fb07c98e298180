// The MLPerf view of an imported entry (its `extra` as `evalsuite import` stores it, mlperf_group.h): ruleset,
// division, raw olympic score, RCP verdict with its reference, official score, and the runs that do not count with
// the reason. Shared by the Markdown and HTML renderers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "reports/report_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

// The importer's MLPerf facts in an entry's extra, read once; none when it holds no official score and RCP record.
std::optional<MlperfFactsModel> ParseMlperfFacts(const nlohmann::json& extra);
// Two columns: fact, value.
ReportTable MlperfScoreTable(const MlperfFactsModel& facts);
// Runs that did not count: file, status, reason (empty when every run counted).
ReportTable MlperfDroppedRunsTable(const MlperfFactsModel& facts);

}  // namespace evalsuite::reports
