#include "reports/model_tables.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "reports/comparison_section.h"
#include "reports/run_curves.h"
#include "reports/value_format.h"
#include "stats/stability_statistics.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// An imported run's thread count is unknown (stored as 0): "—", not "0".
std::string ThreadsText(int threads) { return threads > 0 ? std::to_string(threads) : kMissing; }

void Flatten(const json& value, const std::string& prefix, ReportTable& table) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [key, child] : value.items()) Flatten(child, prefix.empty() ? key : prefix + "." + key, table);
    return;
  }
  table.rows.push_back({prefix, value.is_string() ? value.get<std::string>() : value.dump()});
}

// A small probability with two significant digits ("0.032%"), 0 as "0%".
std::string ShareText(double share) {
  if (!std::isfinite(share)) return kMissing;
  if (share == 0) return "0%";
  return fmt::format("{:.2g}%", share * 100);
}

// The headline median: "12.30" when every run reached, "14.10 (Kaplan-Meier)" when some did not, "not reached".
std::string MedianOfAllRunsText(const stats::StabilityStatistic& statistic, const stats::StatisticValue& value) {
  const std::string basis = statistic.states_basis ? value.basis : "";
  if (basis.rfind("not reached", 0) == 0) return "not reached";
  if (basis == "Kaplan-Meier") return FormatMagnitude(value.value) + " (Kaplan-Meier)";
  return FormatMagnitude(value.value);
}

// An evaluation grid where runs crossed: "2.10 / 0.25 ep", the spacing in the time unit then in epochs, each followed
// by "(coarser than the spread)" when that grid is at least the spread (max - min) of TTA or of epochs to target.
std::string GridCellText(const stats::StabilityStatistic& statistic, const stats::StatisticValue& value,
                         const TableRowModel& row) {
  constexpr const char* kCoarse = " (coarser than the spread)";
  std::string text;
  if (statistic.form == stats::StatisticForm::kGridInTime) {
    text = FormatMagnitude(value.value);
  } else if (const auto progress = Finite(value.value)) {
    text = fmt::format(" / {:.3g} {}", *progress, ProgressUnitSymbol(row.progress_unit));
  }
  if (!statistic.flag_key.empty() && value.coarse == true) text += kCoarse;
  return text;
}

// One statistic's cell in a row of the table, by its form (stats/stability_statistics.h).
std::string StatisticCellText(const stats::StabilityStatistic& statistic, const stats::StatisticValue& value,
                              const TableRowModel& row) {
  switch (statistic.form) {
    case stats::StatisticForm::kCount:
      return value.value ? FormatCount(static_cast<std::size_t>(*value.value)) : kMissing;
    case stats::StatisticForm::kShare:
      if (!statistic.has_interval) return FormatPercent(value.value, statistic.decimals);
      return FormatPercentInterval(value.value, value.interval, statistic.decimals);
    case stats::StatisticForm::kMagnitude:
      return FormatMagnitude(value.value);
    case stats::StatisticForm::kMedianOfAllRuns:
      return MedianOfAllRunsText(statistic, value);
    case stats::StatisticForm::kGridInTime:
    case stats::StatisticForm::kGridInProgress:
      return GridCellText(statistic, value, row);
  }
  return kMissing;
}

}  // namespace

std::string SeedsText(const analysis::RunSeeds& run_seeds) {
  // In the order and form report.json shows them (its keys sorted by name).
  const json seeds = analysis::RunSeedsToJson(run_seeds);
  if (!seeds.is_object())
    return seeds.is_null() ? kMissing : seeds.is_string() ? seeds.get<std::string>() : seeds.dump();
  std::string text;
  for (const auto& [key, value] : seeds.items()) {
    // Seed values only: prose such as evalsuite's "derivation" note stays in report.json, out of the table.
    if (!value.is_number()) continue;
    if (!text.empty()) text += ' ';
    text += key + "=" + value.dump();
  }
  return text.empty() ? kMissing : text;
}

ReportTable StabilityTable(const std::vector<TableRowModel>& rows) {
  // Entry and target, a column per statistic heading (statistics sharing a heading share its column), the unit.
  const std::vector<stats::StabilityStatistic>& statistics = stats::StabilityStatistics();
  std::vector<std::vector<std::size_t>> columns;  // indices into `statistics`
  ReportTable table;
  table.header = {"Entry", "Target"};
  table.numeric = {false, true};
  for (std::size_t i = 0; i < statistics.size(); ++i) {
    const stats::StabilityStatistic& statistic = statistics[i];
    if (statistic.heading.empty()) continue;  // report.json only
    if (!columns.empty() && statistics[columns.back().front()].heading == statistic.heading) {
      columns.back().push_back(i);
      continue;
    }
    columns.push_back({i});
    table.header.push_back(statistic.heading);
    table.numeric.push_back(true);
  }
  table.header.push_back("Unit");
  table.numeric.push_back(false);
  for (const TableRowModel& row : rows) {
    std::vector<std::string> cells = {row.entry, row.metric + " ≥ " + FormatThreshold(row.threshold)};
    for (const auto& column : columns) {
      std::string cell;
      for (std::size_t i : column) {
        cell += i < row.statistics.size() ? StatisticCellText(statistics[i], row.statistics[i], row) : kMissing;
      }
      cells.push_back(std::move(cell));
    }
    cells.push_back(TimeUnitSymbol(row.time_unit));
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::string RunsNotListedNote(const EntryModel& entry) {
  const std::size_t runs = entry.runs.size();
  if (runs <= kRunsListed) return "";
  return fmt::format("The first {} of {} runs. report.json lists every run's figures, and {} every run's evaluations.",
                     kRunsListed, runs, kRunPointsFile);
}

ReportTable RunsTable(const EntryModel& entry) {
  std::string unit = TimeUnitSymbol(entry.time_unit);
  ReportTable table;
  table.header = {"Run",
                  "Status",
                  "TTA (" + unit + ")",
                  ProgressUnitHeading(entry.progress_unit),
                  "Time spent (" + unit + ")",
                  "Wall (s)",
                  "Threads",
                  "Evaluations",
                  "Seeds",
                  "Error"};
  table.numeric = {true, false, true, true, true, true, true, true, false, false};
  for (std::size_t i = 0; i < entry.runs.size() && i < kRunsListed; ++i) {
    const RunModel& run = entry.runs[i];
    std::string status = run.status;
    if (!run.counted) status += " (not counted)";
    table.rows.push_back({std::to_string(run.index), status, FormatMagnitude(run.tta),
                          FormatMagnitude(run.epochs_to_target), FormatMagnitude(run.time_spent),
                          FormatMagnitude(run.wall_seconds), ThreadsText(run.threads), FormatCount(run.evaluations),
                          SeedsText(run.seeds), run.error});
  }
  return table;
}

ReportTable SensitivityTable(const EntryModel& entry) {
  std::string unit = TimeUnitSymbol(entry.time_unit);
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
  for (const SensitivityRowModel& row : entry.sensitivity.thresholds) {
    const stats::StabilityStats& at = row.stats;
    std::string threshold = FormatThreshold(at.threshold);
    if (row.is_target) threshold += " (target)";
    if (row.within_noise_of_target) threshold += " (within noise of the target)";
    table.emphasized.resize(table.rows.size());
    table.emphasized.push_back(row.is_target);
    table.rows.push_back({threshold, fmt::format("{}/{}", at.reached, at.runs),
                          FormatPercentInterval(at.hit_rate, at.hit_rate_interval, 0),
                          at.reached > 0 ? FormatMagnitude(at.tta_summary.median) : kMissing,
                          FormatPercentInterval(at.cov, at.cov_interval), FormatMagnitude(at.olympic_mean),
                          FormatMagnitude(at.ert), KaplanMeierMedianText(at.time_to_target, at.runs)});
  }
  return table;
}

ReportTable ComparisonsTable(const std::vector<EntryComparisonModel>& comparisons) {
  ReportTable table;
  table.header = {"A", "B", "Runs A / B", "P(TTA_A < TTA_B) [95% CI, Newcombe]"};
  table.numeric = {false, false, true, true};
  for (const EntryComparisonModel& row : comparisons) {
    // Printed as `compare` and the pair rows print it (reports/comparison_section.h).
    table.rows.push_back(
        {row.a, row.b, fmt::format("{} / {}", row.runs_a, row.runs_b), ProbabilityAFasterText(row.probability)});
  }
  return table;
}

ReportTable ExpectedBestTable(const EntryModel& entry) {
  const std::string unit = TimeUnitSymbol(entry.time_unit);
  ReportTable table;
  table.header = {"Best of n runs", "Expected TTA (" + unit + ")", "P(none of the n reaches)"};
  table.numeric = {true, true, true};
  for (const stats::ExpectedBest& row : entry.expected_best) {
    table.rows.push_back({FormatCount(row.n), FormatMagnitude(row.expected_tta), ShareText(row.none_reach)});
  }
  return table;
}

ReportTable MethodsTable(const std::vector<MethodModel>& methods) {
  ReportTable table;
  table.header = {"Figure", "Rule or formula", "Source"};
  table.numeric = {false, false, false};
  for (const MethodModel& row : methods) table.rows.push_back({row.name, row.formula, row.source});
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
