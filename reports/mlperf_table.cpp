#include "reports/mlperf_table.h"

#include <fmt/format.h>

#include <string>

#include "common/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string Number(const json& value) {
  const auto v = NumberOf(value);
  return v ? fmt::format("{:.6g}", *v) : kMissing;
}

}  // namespace

bool HasMlperfFacts(const json& extra) {
  return Field(extra, "official").is_object() && Field(extra, "rcp").is_object();
}

ReportTable MlperfScoreTable(const json& extra) {
  ReportTable table;
  table.header = {"MLPerf", "value"};
  table.numeric = {false, false};
  const json& rcp = Field(extra, "rcp");
  const json& official = Field(extra, "official");
  table.rows.push_back({"ruleset", StringOf(Field(extra, "ruleset"), kMissing) + " (" +
                                       StringOf(Field(extra, "ruleset_source"), "?") + ")"});
  table.rows.push_back({"division", StringOf(Field(extra, "division"), kMissing)});
  table.rows.push_back({"raw olympic score (min)", Number(Field(official, "raw_minutes"))});
  const json& throughput = Field(extra, "throughput");
  if (NumberOf(Field(throughput, "median_samples_per_second"))) {
    table.rows.push_back({"training throughput (samples/s)",
                          fmt::format("{} (median of {} successful runs; {}; {}; global batch {})",
                                      Number(Field(throughput, "median_samples_per_second")),
                                      StringOf(Field(throughput, "runs")), StringOf(Field(throughput, "method")),
                                      StringOf(Field(throughput, "interval")),
                                      Number(Field(extra, "global_batch_size")))});
  }
  std::string verdict = StringOf(Field(rcp, "verdict"), kMissing) + ": " + StringOf(Field(rcp, "message"));
  table.rows.push_back({"RCP verdict", verdict});
  if (Field(rcp, "reference").is_string()) {
    table.rows.push_back({"RCP reference", fmt::format("{} (mean {}, stdev {}, min {})",
                                                       StringOf(Field(rcp, "reference")), Number(Field(rcp, "rcp_mean")),
                                                       Number(Field(rcp, "rcp_stdev")),
                                                       Number(Field(rcp, "min_epochs")))});
    table.rows.push_back({"submission mean convergence", Number(Field(rcp, "submission_mean_epochs"))});
  }
  table.rows.push_back({"RCP normalization", Number(Field(rcp, "norm_factor"))});
  table.rows.push_back({"published scaling.json", Number(Field(official, "published_scaling_factor"))});
  table.rows.push_back({"official score (min)", Number(Field(official, "official_minutes"))});
  table.emphasized = std::vector<bool>(table.rows.size(), false);
  table.emphasized.back() = true;
  if (Field(official, "note").is_string()) table.rows.push_back({"note", StringOf(Field(official, "note"))});
  return table;
}

ReportTable MlperfDroppedRunsTable(const json& extra) {
  ReportTable table;
  table.header = {"file", "status", "reason"};
  table.numeric = {false, false, false};
  for (const json& run : ArrayOf(Field(extra, "run_details"))) {
    if (StringOf(Field(run, "status")) == "success") continue;
    table.rows.push_back(
        {StringOf(Field(run, "file")), StringOf(Field(run, "status")), StringOf(Field(run, "reason"), kMissing)});
  }
  return table;
}

}  // namespace evalsuite::reports
