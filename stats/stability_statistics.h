// The per-entry stability statistics as one table. Each entry names a statistic, computes it from an entry's
// counted runs, and states its unit, which direction is better, and the methods and sources the report's Methods
// table cites. report.json's table rows, the Markdown and HTML Tables 2-3 view and `study show` all read this
// table, so a statistic added here is one entry (reports/stats_json.cpp, reports/model_tables.cpp and
// study/study_summary.cpp turn each entry into their own text).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stats/interval.h"
#include "stats/stability.h"
#include "stats/variation_decomposition.h"

namespace evalsuite::stats {

// What an entry's statistics are computed from: its counted runs analysed in training time (TTA) and, where every
// counted run logged epochs, in epochs (epochs to target), and the split of TTA's variation between the two.
struct EntryStatistics {
  StabilityStats at_target;
  std::optional<StabilityStats> in_epochs;
  VariationDecomposition variation;
};

// One statistic of one entry. value nullopt where undefined (fewer than two runs reached, no epochs logged...).
struct StatisticValue {
  std::optional<double> value;
  std::optional<Interval> interval;  // statistics with an interval: nullopt where it is undefined
  std::string basis;                 // statistics that state how the value was obtained (a median's: "Kaplan-Meier")
  std::optional<bool> coarse;        // evaluation grids: at least as coarse as the spread of the values
};

enum class StatisticUnit {
  kCount,     // runs
  kShare,     // a fraction in [0, 1], shown as a percentage
  kTime,      // the entry's time unit
  kProgress,  // epochs (samples for an MLPerf benchmark that counts samples)
};

enum class StatisticDirection { kLowerIsBetter, kHigherIsBetter, kNeutral };

// How a value reads in a table cell (the renderers' formatting choice per kind).
enum class StatisticForm {
  kCount,            // an integer
  kShare,            // a percentage, with its interval when the statistic has one
  kMagnitude,        // a time with sensible precision
  kMedianOfAllRuns,  // a median with its basis ("(Kaplan-Meier)", "not reached")
  kGridInTime,       // an evaluation grid in the time unit, "(coarser than the spread)" when coarse
  kGridInProgress,   // the same in epochs, appended to the column it shares: " / 0.25 ep"
};

// A row of the report's Methods table.
struct StatisticMethod {
  std::string name;
  std::string formula;
  std::string source;
};

struct StabilityStatistic {
  // report.json's table rows: `key`, then `key`_lower and `key`_upper (has_interval), `key`_basis (states_basis)
  // and `flag_key` (the coarse flag, grids only).
  std::string key;
  std::string heading;  // column of report.md / report.html; consecutive statistics with one heading share it
  // Column of `study show`'s compact table, empty when not in it, and its place there (columns in ascending order).
  std::string summary_heading;
  int summary_order = 0;
  StatisticUnit unit = StatisticUnit::kShare;
  StatisticDirection direction = StatisticDirection::kNeutral;
  StatisticForm form = StatisticForm::kShare;
  bool has_interval = false;
  bool states_basis = false;
  std::string flag_key;
  int decimals = 1;  // percentages
  // The methods the Methods table cites for it (a method two statistics share is listed once, where it first
  // appears in this table).
  std::vector<StatisticMethod> methods;
  StatisticValue (*compute)(const EntryStatistics&) = nullptr;
};

// Every statistic, in the order of the report's table columns.
const std::vector<StabilityStatistic>& StabilityStatistics();

}  // namespace evalsuite::stats
