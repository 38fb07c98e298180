// Parts of the stability report model beyond one entry's statistics: the validation metric's sampling noise at
// the target, entry-against-entry comparisons (probability of improvement), expected best-of-n TTA, and the list
// of methods the report uses with their sources. Shapes are documented in report.h.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_input.h"
#include "reports/report_model.h"
#include "stats/stability.h"

namespace evalsuite::reports {

// The binomial standard error of an accuracy-like metric at the target, sqrt(p (1 - p) / n) with n the validation
// split's size (entry.extra["validation_size"]; a percent-scale metric's in points), the grid thresholds within it
// of the target, and how many runs crossed the target and fell back below it later. No standard error when the size
// is unknown.
ThresholdNoiseModel ThresholdNoise(const analysis::Entry& entry, const std::vector<double>& thresholds,
                                   const std::vector<stats::RunCurve>& curves);

// Expected best-of-n TTA for a few n up to the entry's runs (stats/improvement.h).
std::vector<stats::ExpectedBest> ExpectedBest(const stats::StabilityStats& stats);

// Probability of improvement between every pair of entries with the same metric, threshold and time unit.
struct ComparedEntry {
  std::string name, metric, time_unit;
  double threshold = 0;
  std::vector<std::optional<double>> tta;
};
std::vector<EntryComparisonModel> EntryComparisons(const std::vector<ComparedEntry>& entries);

// [{name, formula, source}] for each rule and formula the report uses: TTA's definition, then the methods of every
// statistic of stats/stability_statistics.h in its order, then the validation noise and the comparisons.
std::vector<MethodModel> Methods();

}  // namespace evalsuite::reports
