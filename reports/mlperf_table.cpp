#include "reports/mlperf_table.h"

#include <fmt/format.h>

#include <string>

#include "common/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string Number(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : std::string(kMissing);
}

}  // namespace

// The one place the importer's MLPerf record is read; an older or partial record reads as absent figures.
std::optional<MlperfFactsModel> ParseMlperfFacts(const json& extra) {
  const json& official = Field(extra, "official");
  const json& rcp = Field(extra, "rcp");
  if (!official.is_object() || !rcp.is_object()) return std::nullopt;
  MlperfFactsModel facts;
  facts.ruleset = OptionalTextOf(Field(extra, "ruleset"));
  facts.ruleset_source = OptionalTextOf(Field(extra, "ruleset_source"));
  facts.division = OptionalTextOf(Field(extra, "division"));
  facts.raw_minutes = NumberOf(Field(official, "raw_minutes"));
  facts.published_scaling_factor = NumberOf(Field(official, "published_scaling_factor"));
  facts.official_minutes = NumberOf(Field(official, "official_minutes"));
  if (const json& note = Field(official, "note"); note.is_string()) facts.official_note = note.get<std::string>();
  const json& throughput = Field(extra, "throughput");
  facts.median_samples_per_second = NumberOf(Field(throughput, "median_samples_per_second"));
  facts.throughput_runs = StringOf(Field(throughput, "runs"));
  facts.throughput_method = StringOf(Field(throughput, "method"));
  facts.throughput_interval = StringOf(Field(throughput, "interval"));
  facts.global_batch_size = NumberOf(Field(extra, "global_batch_size"));
  facts.rcp_verdict = OptionalTextOf(Field(rcp, "verdict"));
  facts.rcp_message = StringOf(Field(rcp, "message"));
  if (const json& reference = Field(rcp, "reference"); reference.is_string()) {
    facts.rcp_reference = reference.get<std::string>();
  }
  facts.rcp_mean = NumberOf(Field(rcp, "rcp_mean"));
  facts.rcp_stdev = NumberOf(Field(rcp, "rcp_stdev"));
  facts.min_epochs = NumberOf(Field(rcp, "min_epochs"));
  facts.submission_mean_epochs = NumberOf(Field(rcp, "submission_mean_epochs"));
  facts.norm_factor = NumberOf(Field(rcp, "norm_factor"));
  for (const json& run : ArrayOf(Field(extra, "run_details"))) {
    facts.run_details.push_back(
        {StringOf(Field(run, "file")), StringOf(Field(run, "status")), OptionalTextOf(Field(run, "reason"))});
  }
  return facts;
}

ReportTable MlperfScoreTable(const MlperfFactsModel& facts) {
  ReportTable table;
  table.header = {"MLPerf", "value"};
  table.numeric = {false, false};
  table.rows.push_back({"ruleset", facts.ruleset.value_or(kMissing) + " (" + facts.ruleset_source.value_or("?") + ")"});
  table.rows.push_back({"division", facts.division.value_or(kMissing)});
  table.rows.push_back({"raw olympic score (min)", Number(facts.raw_minutes)});
  if (facts.median_samples_per_second) {
    table.rows.push_back(
        {"training throughput (samples/s)",
         fmt::format("{} (median of {} successful runs; {}; {}; global batch {})",
                     Number(facts.median_samples_per_second), facts.throughput_runs, facts.throughput_method,
                     facts.throughput_interval, Number(facts.global_batch_size))});
  }
  table.rows.push_back({"RCP verdict", facts.rcp_verdict.value_or(kMissing) + ": " + facts.rcp_message});
  if (facts.rcp_reference) {
    table.rows.push_back(
        {"RCP reference", fmt::format("{} (mean {}, stdev {}, min {})", *facts.rcp_reference, Number(facts.rcp_mean),
                                      Number(facts.rcp_stdev), Number(facts.min_epochs))});
    table.rows.push_back({"submission mean convergence", Number(facts.submission_mean_epochs)});
  }
  table.rows.push_back({"RCP normalization", Number(facts.norm_factor)});
  table.rows.push_back({"published scaling.json", Number(facts.published_scaling_factor)});
  table.rows.push_back({"official score (min)", Number(facts.official_minutes)});
  table.emphasized = std::vector<bool>(table.rows.size(), false);
  table.emphasized.back() = true;
  if (facts.official_note) table.rows.push_back({"note", *facts.official_note});
  return table;
}

ReportTable MlperfDroppedRunsTable(const MlperfFactsModel& facts) {
  ReportTable table;
  table.header = {"file", "status", "reason"};
  table.numeric = {false, false, false};
  for (const MlperfRunDetailModel& run : facts.run_details) {
    if (run.status == "success") continue;
    table.rows.push_back({run.file, run.status, run.reason.value_or(kMissing)});
  }
  return table;
}

}  // namespace evalsuite::reports
