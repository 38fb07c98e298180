// Telling the machine's noise from the training's, per entry: how busy the machine was during its runs (from each
// run's contention record), where the variation of TTA came from (stats/variation_decomposition.h), and the verdict
// card's first line when the machine was busy or time per epoch varied beyond the stated bound, e.g. "the machine was
// busy during 7 of 15 runs (steal 12%, load 3.4 on 2 cores); time per epoch varied 28%; judged on epochs to target
// the entry is STABLE". The thresholds are stated here, once, and in the report's rule statement.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_input.h"
#include "reports/report_model.h"
#include "stats/variation_decomposition.h"

namespace evalsuite::reports {

// Time per epoch is the machine's part of TTA; on dedicated hardware DAWNBench saw it stable to a few percent. Beyond
// this CoV the machine's speed varied enough to move the verdict on TTA.
constexpr double kMaxTimePerEpochCov = 0.05;

// Over the runs that have a record, busy by analysis::RunWasBusy (report.json: {runs_measured, busy_runs,
// other_busy_cores {mean, max}, steal_fraction {mean, max}, load_average_1m {mean, max}, cpu_pressure_some {mean, max}
// (null where no PSI), cores, rule}); none when no run was measured.
std::optional<ContentionSummaryModel> ContentionSummary(const std::vector<const analysis::Run*>& runs);
// The busy rule as report.json states it.
std::string BusyRule();

nlohmann::json VariationJson(const stats::VariationDecomposition& d);
// "CoV of TTA 12.3% = epochs to target 8.1% (seed) and time per epoch 9.0% (machine): var(ln TTA) = ..."; empty when
// fewer than two runs reached.
std::string VariationSentence(const stats::VariationDecomposition& d);

// The verdict card's first line, or empty when the machine was quiet and time per epoch within the bound.
// `epochs_result`: the verdict judged on epochs to target (empty when not available); `basis`: the one the verdict
// was judged on (stats/entry_verdict.h).
std::string MachineNoiseLine(const std::optional<ContentionSummaryModel>& contention_summary,
                             const stats::VariationDecomposition& d, const std::string& epochs_result,
                             const std::string& basis);

}  // namespace evalsuite::reports
