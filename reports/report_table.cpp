#include "reports/report_table.h"

#include <fmt/format.h>

#include "reports/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string Count(const json& value) { return NumberOf(value) ? value.dump() : kMissing; }

void Flatten(const json& value, const std::string& prefix, ReportTable& table) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) Flatten(child, prefix.empty() ? key : prefix + "." + key, table);
    return;
  }
  table.rows.push_back({prefix, value.is_string() ? value.get<std::string>() : value.dump()});
}

}  // namespace

std::string SeedsText(const json& seeds) {
  if (!seeds.is_object()) return seeds.is_null() ? kMissing : StringOf(seeds);
  std::string text;
  for (const auto& [key, value] : seeds.items()) {
    // Seed values only: prose such as evalsuite's "derivation" note stays in report.json, out of the table.
    if (!value.is_number()) continue;
    if (!text.empty()) text += ' ';
    text += key + "=" + StringOf(value);
  }
  return text.empty() ? kMissing : text;
}

ReportTable StabilityTable(const json& model) {
  ReportTable table;
  table.header = {"Entry",
                  "Target",
                  "Runs",
                  "Reached",
                  "CoV of TTA [95% CI]",
                  "CoV of epochs to target [95% CI]",
                  "Runs reaching [95% CI]",
                  "Median TTA",
                  "Olympic mean",
                  "ERT",
                  "Unit"};
  table.numeric = {false, true, true, true, true, true, true, true, true, true, false};
  for (const json& row : ArrayOf(Field(model, "table"))) {
    table.rows.push_back(
        {StringOf(Field(row, "entry")),
         StringOf(Field(row, "metric")) + " ≥ " + FormatThreshold(Field(row, "threshold")), Count(Field(row, "runs")),
         Count(Field(row, "reached")),
         FormatPercentInterval(Field(row, "cov"), Field(row, "cov_lower"), Field(row, "cov_upper")),
         FormatPercentInterval(Field(row, "epochs_cov"), Field(row, "epochs_cov_lower"),
                               Field(row, "epochs_cov_upper")),
         FormatPercentInterval(Field(row, "hit_rate"), Field(row, "hit_rate_lower"), Field(row, "hit_rate_upper"), 0),
         FormatMagnitude(Field(row, "median_tta")), FormatMagnitude(Field(row, "olympic_mean")),
         FormatMagnitude(Field(row, "ert")), TimeUnitSymbol(StringOf(Field(row, "time_unit")))});
  }
  return table;
}

ReportTable RunsTable(const json& entry) {
  std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  ReportTable table;
  table.header = {"Run",
                  "Status",
                  "TTA (" + unit + ")",
                  "Epochs to target",
                  "Time spent (" + unit + ")",
                  "Wall (s)",
                  "Threads",
                  "Evaluations",
                  "Seeds",
                  "Error"};
  table.numeric = {true, false, true, true, true, true, true, true, false, false};
  for (const json& run : ArrayOf(Field(entry, "runs"))) {
    std::string status = StringOf(Field(run, "status"), kMissing);
    if (Field(run, "counted") == json(false)) status += " (not counted)";
    table.rows.push_back({Count(Field(run, "index")), status, FormatMagnitude(Field(run, "tta")),
                          FormatMagnitude(Field(run, "epochs_to_target")), FormatMagnitude(Field(run, "time_spent")),
                          FormatMagnitude(Field(run, "wall_seconds")), Count(Field(run, "threads")),
                          std::to_string(ArrayOf(Field(run, "points")).size()), SeedsText(Field(run, "seeds")),
                          StringOf(Field(run, "error"), "")});
  }
  return table;
}

ReportTable SensitivityTable(const json& entry) {
  std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  ReportTable table;
  table.header = {"Threshold",
                  "Reached",
                  "Runs reaching [95% CI]",
                  "Median TTA (" + unit + ")",
                  "CoV of TTA [95% CI]",
                  "Olympic mean (" + unit + ")",
                  "ERT (" + unit + ")",
                  "Kaplan-Meier median [95% CI]"};
  table.numeric = {true, true, true, true, true, true, true, true};
  for (const json& row : ArrayOf(Field(Field(entry, "sensitivity"), "thresholds"))) {
    std::string threshold = FormatThreshold(Field(row, "threshold"));
    const bool is_target = Field(row, "is_target") == json(true);
    if (is_target) threshold += " (target)";
    table.emphasized.resize(table.rows.size());
    table.emphasized.push_back(is_target);
    const json& hit_interval = Field(row, "hit_rate_interval");
    const json& cov_interval = Field(row, "cov_interval");
    bool any_reached = NumberOf(Field(row, "reached")).value_or(0) > 0;
    table.rows.push_back(
        {threshold, fmt::format("{}/{}", Count(Field(row, "reached")), Count(Field(row, "runs"))),
         FormatPercentInterval(Field(row, "hit_rate"), Field(hit_interval, "lower"), Field(hit_interval, "upper"), 0),
         any_reached ? FormatMagnitude(Field(Field(row, "tta_summary"), "median")) : kMissing,
         FormatPercentInterval(Field(row, "cov"), Field(cov_interval, "lower"), Field(cov_interval, "upper")),
         FormatMagnitude(Field(row, "olympic_mean")), FormatMagnitude(Field(row, "ert")),
         KaplanMeierMedianText(Field(row, "kaplan_meier"), Field(row, "runs"))});
  }
  return table;
}

ReportTable EnvironmentTable(const json& environment) {
  ReportTable table;
  table.header = {"Key", "Value"};
  table.numeric = {false, false};
  if (environment.is_object() && !environment.empty()) Flatten(environment, "", table);
  return table;
}

}  // namespace evalsuite::reports
