// The stability charts of the HTML report, each drawn from the report model alone (svg_chart.h does the
// drawing): accuracy against training time per entry, TTA per run, Kaplan-Meier curves, threshold
// sensitivity. Entries in one chart must share a time unit; GroupByTimeUnit splits them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reports/report_model.h"

namespace evalsuite::reports {

// The model's entries grouped by time_unit, in order of first appearance.
std::vector<std::pair<std::string, std::vector<const EntryModel*>>> GroupByTimeUnit(
    const std::vector<EntryModel>& entries);

// data-chart="accuracy-vs-time": every run's curve, the threshold line and each run's TTA point.
std::string AccuracyVsTimeChart(const EntryModel& entry);
// data-chart="tta-per-run": one row of dots per entry; runs that did not reach the target as crosses apart.
std::string TtaPerRunChart(const std::vector<const EntryModel*>& entries, const std::string& time_unit);
// data-chart="kaplan-meier": share of runs not yet at the target over training time, with log-log bands.
std::string KaplanMeierChart(const std::vector<const EntryModel*>& entries, const std::string& time_unit);
// data-chart="threshold-sensitivity": median TTA (with min-max range) and hit rate (with its interval).
std::string ThresholdSensitivityChart(const EntryModel& entry);

}  // namespace evalsuite::reports
