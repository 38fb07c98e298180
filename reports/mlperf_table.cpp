#include "reports/mlperf_table.h"

#include <fmt/format.h>

#include <string>

#include "analysis/mlperf_facts.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string MlperfFigureText(const std::optional<double>& value) {
  return value ? fmt::format("{:.6g}", *value) : std::string(kMissing);
}

}  // namespace

// The importer's record is read by analysis::MlperfFactsFromJson, as the importer's summary and `study show` read it;
// this is the report model's conversion of it. Text and figures the record lacks read as absent.
std::optional<MlperfFactsModel> ParseMlperfFacts(const json& extra) {
  const analysis::MlperfFacts read = analysis::MlperfFactsFromJson(extra);
  if (!read.official || !read.rcp) return std::nullopt;
  const analysis::MlperfOfficialFacts& official = *read.official;
  const analysis::MlperfRcpFacts& rcp = *read.rcp;
  const analysis::MlperfThroughputFacts throughput = read.throughput.value_or(analysis::MlperfThroughputFacts{});
  MlperfFactsModel facts;
  facts.ruleset = read.ruleset;
  facts.ruleset_source = read.ruleset_source;
  facts.division = read.division;
  facts.raw_minutes = official.raw_minutes;
  facts.published_scaling_factor = official.published_scaling_factor;
  facts.official_minutes = official.official_minutes;
  facts.official_note = official.note;
  facts.median_samples_per_second = throughput.median_samples_per_second;
  facts.throughput_runs = throughput.runs ? std::to_string(*throughput.runs) : std::string();
  facts.throughput_method = throughput.method.value_or("");
  facts.throughput_interval = throughput.interval.value_or("");
  facts.global_batch_size = read.global_batch_size;
  facts.rcp_verdict = rcp.verdict;
  facts.rcp_message = rcp.message.value_or("");
  facts.rcp_reference = rcp.reference;
  facts.rcp_mean = rcp.rcp_mean;
  facts.rcp_stdev = rcp.rcp_stdev;
  facts.min_epochs = rcp.min_epochs;
  facts.submission_mean_epochs = rcp.submission_mean_epochs;
  facts.norm_factor = rcp.norm_factor;
  for (const analysis::MlperfRunFacts& run : read.run_details) {
    facts.run_details.push_back({run.file.value_or(""), run.status.value_or(""), run.reason});
  }
  return facts;
}

ReportTable MlperfScoreTable(const MlperfFactsModel& facts) {
  ReportTable table;
  table.header = {"MLPerf", "value"};
  table.numeric = {false, false};
  table.rows.push_back({"ruleset", facts.ruleset.value_or(kMissing) + " (" + facts.ruleset_source.value_or("?") + ")"});
  table.rows.push_back({"division", facts.division.value_or(kMissing)});
  table.rows.push_back({"raw olympic score (min)", MlperfFigureText(facts.raw_minutes)});
  if (facts.median_samples_per_second) {
    table.rows.push_back(
        {"training throughput (samples/s)",
         fmt::format("{} (median of {} successful runs; {}; {}; global batch {})",
                     MlperfFigureText(facts.median_samples_per_second), facts.throughput_runs, facts.throughput_method,
                     facts.throughput_interval, MlperfFigureText(facts.global_batch_size))});
  }
  table.rows.push_back({"RCP verdict", facts.rcp_verdict.value_or(kMissing) + ": " + facts.rcp_message});
  if (facts.rcp_reference) {
    table.rows.push_back(
        {"RCP reference",
         fmt::format("{} (mean {}, stdev {}, min {})", *facts.rcp_reference, MlperfFigureText(facts.rcp_mean),
                     MlperfFigureText(facts.rcp_stdev), MlperfFigureText(facts.min_epochs))});
    table.rows.push_back({"submission mean convergence", MlperfFigureText(facts.submission_mean_epochs)});
  }
  table.rows.push_back({"RCP normalization", MlperfFigureText(facts.norm_factor)});
  table.rows.push_back({"published scaling.json", MlperfFigureText(facts.published_scaling_factor)});
  table.rows.push_back({"official score (min)", MlperfFigureText(facts.official_minutes)});
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
