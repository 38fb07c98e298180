// Every run's evaluations go to a side file beside report.json (JSON Lines, one run a line, kRunPointsFile); the
// model keeps per entry only what its chart draws ("curves"): every run's curve up to kRunsDrawnInFull runs, and
// beyond that a band of quantiles of the metric over training time with a few runs named by their role. The
// report's size then grows with the entries, not with every evaluation of every run.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "reports/report_input.h"
#include "reports/report_model.h"

namespace evalsuite::reports {

// The side file's name, in the report folder; the model names it under "points_file".
inline constexpr const char* kRunPointsFile = "report-points.jsonl";
// Up to this many runs an entry's chart draws every curve; more are drawn as a band and a few runs.
inline constexpr std::size_t kRunsDrawnInFull = 20;
// Times at which the band's quantiles are taken, evenly from 0 to the longest counted run.
inline constexpr std::size_t kBandTimes = 61;

// An entry's curves; report.json's entry["curves"] (report_json.h): {runs, max_time, metric_min, metric_max, drawn
// [{index, status, counted, tta, role, points [[time, metric]...]}], drawn_rule, band (null up to kRunsDrawnInFull
// runs) {runs, rule, columns, rows [[time, runs, q10, q25, median, q75, q90]...]}}. max_time is the longest run's
// time spent or last evaluation; metric_min/max span every evaluation of every run (null when none), so the axes
// match a chart of every run.
CurvesModel EntryCurves(const analysis::Entry& entry, double threshold, std::size_t consecutive);
// The band's rule as report.json states it.
inline constexpr const char* kBandRule =
    "at each time, the 10/25/50/75/90% quantiles (linear) of the metric over the counted runs still training then "
    "(first evaluation <= t <= last), each at its latest evaluation at or before t";

// The side file's text: one line per run, entries and their runs in the model's order:
// {"entry": name, "run": position in the entry's "runs", "index": the run's index, "points": [[time, metric]...]}.
std::string RunPointsJsonLines(const StabilityReportInput& input);

}  // namespace evalsuite::reports
