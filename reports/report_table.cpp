#include "reports/report_table.h"

#include <fmt/format.h>

#include "reports/comparison_section.h"
#include "common/json_access.h"
#include "reports/run_curves.h"
#include "reports/value_format.h"
#include "stats/stability_statistics.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string Count(const json& value) { return NumberOf(value) ? value.dump() : kMissing; }
// An imported run's thread count is unknown (stored as 0): "—", not "0".
std::string ThreadsText(const json& value) { return NumberOf(value).value_or(0) > 0 ? value.dump() : kMissing; }

void Flatten(const json& value, const std::string& prefix, ReportTable& table) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) Flatten(child, prefix.empty() ? key : prefix + "." + key, table);
    return;
  }
  table.rows.push_back({prefix, value.is_string() ? value.get<std::string>() : value.dump()});
}

// A small probability with two significant digits ("0.032%"), 0 as "0%".
std::string ShareText(const json& value) {
  const auto share = NumberOf(value);
  if (!share) return kMissing;
  if (*share == 0) return "0%";
  return fmt::format("{:.2g}%", *share * 100);
}

// The headline median: "12.30" when every run reached, "14.10 (Kaplan-Meier)" when some did not, "not reached".
std::string MedianOfAllRunsText(const json& value, const json& basis_value) {
  const std::string basis = StringOf(basis_value);
  if (basis.rfind("not reached", 0) == 0) return "not reached";
  if (basis == "Kaplan-Meier") return FormatMagnitude(value) + " (Kaplan-Meier)";
  return FormatMagnitude(value);
}

// An evaluation grid where runs crossed: "2.10 / 0.25 ep", the spacing in the time unit then in epochs, each followed
// by "(coarser than the spread)" when that grid is at least the spread (max - min) of TTA or of epochs to target.
std::string GridCellText(const stats::StabilityStatistic& statistic, const json& row) {
  constexpr const char* kCoarse = " (coarser than the spread)";
  std::string text;
  const json& value = Field(row, statistic.key.c_str());
  if (statistic.form == stats::StatisticForm::kGridInTime) {
    text = FormatMagnitude(value);
  } else if (const auto progress = NumberOf(value)) {
    text = fmt::format(" / {:.3g} {}", *progress, ProgressUnitSymbol(StringOf(Field(row, "progress_unit"))));
  }
  if (Field(row, statistic.flag_key.c_str()) == json(true)) text += kCoarse;
  return text;
}

// One statistic's cell in a row of model["table"], by its form (stats/stability_statistics.h).
std::string StatisticCellText(const stats::StabilityStatistic& statistic, const json& row) {
  const json& value = Field(row, statistic.key.c_str());
  switch (statistic.form) {
    case stats::StatisticForm::kCount:
      return Count(value);
    case stats::StatisticForm::kShare:
      if (!statistic.has_interval) return FormatPercent(value, statistic.decimals);
      return FormatPercentInterval(value, Field(row, (statistic.key + "_lower").c_str()),
                                   Field(row, (statistic.key + "_upper").c_str()), statistic.decimals);
    case stats::StatisticForm::kMagnitude:
      return FormatMagnitude(value);
    case stats::StatisticForm::kMedianOfAllRuns:
      return MedianOfAllRunsText(value, Field(row, (statistic.key + "_basis").c_str()));
    case stats::StatisticForm::kGridInTime:
    case stats::StatisticForm::kGridInProgress:
      return GridCellText(statistic, row);
  }
  return kMissing;
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
  // Entry and target, a column per statistic heading (statistics sharing a heading share its column), the unit.
  std::vector<std::vector<const stats::StabilityStatistic*>> columns;
  ReportTable table;
  table.header = {"Entry", "Target"};
  table.numeric = {false, true};
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    if (statistic.heading.empty()) continue;  // report.json only
    if (!columns.empty() && columns.back().front()->heading == statistic.heading) {
      columns.back().push_back(&statistic);
      continue;
    }
    columns.push_back({&statistic});
    table.header.push_back(statistic.heading);
    table.numeric.push_back(true);
  }
  table.header.push_back("Unit");
  table.numeric.push_back(false);
  for (const json& row : ArrayOf(Field(model, "table"))) {
    std::vector<std::string> cells = {StringOf(Field(row, "entry")), StringOf(Field(row, "metric")) + " ≥ " +
                                                                         FormatThreshold(Field(row, "threshold"))};
    for (const auto& column : columns) {
      std::string cell;
      for (const stats::StabilityStatistic* statistic : column) cell += StatisticCellText(*statistic, row);
      cells.push_back(std::move(cell));
    }
    cells.push_back(TimeUnitSymbol(StringOf(Field(row, "time_unit"))));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

namespace {

// The run's count of evaluations (a model that still holds its points: their number).
std::string EvaluationsText(const json& run) {
  if (const json& count = Field(run, "evaluations"); count.is_number()) return Count(count);
  return std::to_string(ArrayOf(Field(run, "points")).size());
}

}  // namespace

std::string RunsNotListedNote(const json& entry) {
  const std::size_t runs = ArrayOf(Field(entry, "runs")).size();
  if (runs <= kRunsListed) return "";
  return fmt::format("The first {} of {} runs. report.json lists every run's figures, and {} every run's evaluations.",
                     kRunsListed, runs, kRunPointsFile);
}

ReportTable RunsTable(const json& entry) {
  std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  ReportTable table;
  table.header = {"Run",
                  "Status",
                  "TTA (" + unit + ")",
                  ProgressUnitHeading(StringOf(Field(entry, "progress_unit"))),
                  "Time spent (" + unit + ")",
                  "Wall (s)",
                  "Threads",
                  "Evaluations",
                  "Seeds",
                  "Error"};
  table.numeric = {true, false, true, true, true, true, true, true, false, false};
  const json& runs = ArrayOf(Field(entry, "runs"));
  for (std::size_t i = 0; i < runs.size() && i < kRunsListed; ++i) {
    const json& run = runs[i];
    std::string status = StringOf(Field(run, "status"), kMissing);
    if (Field(run, "counted") == json(false)) status += " (not counted)";
    table.rows.push_back({Count(Field(run, "index")), status, FormatMagnitude(Field(run, "tta")),
                          FormatMagnitude(Field(run, "epochs_to_target")), FormatMagnitude(Field(run, "time_spent")),
                          FormatMagnitude(Field(run, "wall_seconds")), ThreadsText(Field(run, "threads")),
                          EvaluationsText(run), SeedsText(Field(run, "seeds")),
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
                  "Median of runs that reached (" + unit + ")",
                  "CoV of TTA [95% CI]",
                  "Olympic mean (" + unit + ")",
                  "ERT (" + unit + ")",
                  "Kaplan-Meier median [95% CI]"};
  table.numeric = {true, true, true, true, true, true, true, true};
  for (const json& row : ArrayOf(Field(Field(entry, "sensitivity"), "thresholds"))) {
    std::string threshold = FormatThreshold(Field(row, "threshold"));
    const bool is_target = Field(row, "is_target") == json(true);
    if (is_target) threshold += " (target)";
    if (Field(row, "within_noise_of_target") == json(true)) threshold += " (within noise of the target)";
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

ReportTable ComparisonsTable(const json& model) {
  ReportTable table;
  table.header = {"A", "B", "Runs A / B", "P(TTA_A < TTA_B) [95% CI, Newcombe]"};
  table.numeric = {false, false, true, true};
  for (const json& row : ArrayOf(Field(model, "comparisons"))) {
    // Printed as `compare` and the pair rows print it (reports/comparison_section.h).
    const json probability = {{"probability", Field(row, "probability_a_faster")},
                              {"interval", Field(row, "interval")},
                              {"withheld", Field(row, "interval_withheld")}};
    table.rows.push_back({StringOf(Field(row, "a")), StringOf(Field(row, "b")),
                          Count(Field(row, "runs_a")) + " / " + Count(Field(row, "runs_b")),
                          ProbabilityAFasterText(probability)});
  }
  return table;
}

ReportTable ExpectedBestTable(const json& entry) {
  const std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  ReportTable table;
  table.header = {"Best of n runs", "Expected TTA (" + unit + ")", "P(none of the n reaches)"};
  table.numeric = {true, true, true};
  for (const json& row : ArrayOf(Field(entry, "expected_best"))) {
    table.rows.push_back(
        {Count(Field(row, "n")), FormatMagnitude(Field(row, "expected_tta")), ShareText(Field(row, "none_reach"))});
  }
  return table;
}

ReportTable MethodsTable(const json& model) {
  ReportTable table;
  table.header = {"Figure", "Rule or formula", "Source"};
  table.numeric = {false, false, false};
  for (const json& row : ArrayOf(Field(model, "methods"))) {
    table.rows.push_back(
        {StringOf(Field(row, "name")), StringOf(Field(row, "formula")), StringOf(Field(row, "source"))});
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
