// Builds the report model (typed structs, report_model.h) from plain run data and renders it. report.json (ToJson,
// report_json.h, the one serialization) is the canonical output; Markdown and self-contained HTML (inline SVG charts,
// no network) are renderings of the same structs through one outline (report_outline.h). The model opens with the
// verdict per entry, then the Tables 2-3 view, raw per-run values, every statistic, and any extra sections
// (generalization, see generalization_section.h; hardware, hardware_section.h).
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "reports/report_input.h"
#include "reports/report_json.h"
#include "reports/report_model.h"
#include "reports/run_curves.h"

namespace evalsuite::reports {

constexpr int kReportSchemaVersion = 1;

// report.json's shape, as ToJson writes the model (every non-finite or undefined number is null; a run that missed the
// target has tta null, never a capped time; "incomplete" runs are listed with counted=false and left out of every
// statistic):
//   schema_version, title, generated_at, environment (DescribeEnvironment() when the input's is empty), plan,
//   rule {max_cov_upper, min_hit_rate, min_reached, statement},
//   points_file (the JSON Lines file beside report.json that holds every run's evaluations, RunPointsJsonLines),
//   verdicts [{entry, result "STABLE"|"NOT STABLE"|"INCONCLUSIVE", stable, reasons[] (stats::JudgeStability, one
//              per rule, then what more runs would do), reached_runs_needed, runs, reached, threshold, cov,
//              cov_interval}],
//   table [{entry, metric, threshold, time_unit, progress_unit, busy_runs, and every statistic of
//           stats/stability_statistics.h under its key: runs, reached, cov (+ _lower, _upper), epochs_cov (+ ...),
//           hit_rate (+ ...), median_tta (+ _basis), median_tta_reached, olympic_mean, ert, tta_resolution,
//           epochs_resolution (+ their coarse flags), time_per_epoch_cov, median_epochs}]   (DAWNBench Tables 2-3)
//   entries [{name, description, source, metric, threshold, time_unit, extra,
//             runs [{index, seeds, status, counted, tta, epochs_to_target, time_spent, wall_seconds, threads,
//                    error, evaluations (their count: the points are in points_file)}],
//             curves {what the entry's chart draws: every run's points up to 20 runs, beyond a band of quantiles
//                     over time and a few runs (reports/run_curves.h)},
//             stats {threshold, alpha, runs, reached, tta[], tta_summary {n, mean, median, stddev, min, max},
//                    cov, cov_interval {lower, upper}, hit_rate, hit_rate_interval, olympic_mean, ert,
//                    kaplan_meier {steps [{time, at_risk, events, survival, lower, upper}], median,
//                                  median_lower, median_upper}},
//             epochs_to_target {stats as above, in epochs; null unless every counted run has epochs},
//             sensitivity {grid {step, steps_below, steps_above, extra_thresholds, rule},
//                          thresholds [stats as above + is_target, their kaplan_meier the median and its interval
//                                      only, without steps]}}]   (grid: reports/sensitivity_grid.h)
//   comparisons [{a, b, runs_a, runs_b, probability_a_faster, interval, interval_withheld}], methods [{name, formula,
//   source}], compare (reports/comparison_section.h) and cost (reports/cost_section.h) when present,
//   ...and every key of extra_sections as it is (a key clashing with the above is a UsageError).
// `progress`, when given, hears each step's name as it starts ("entry 3 of 20: name", "comparisons").
ReportModel BuildStabilityReport(const StabilityReportInput& input,
                                 const std::function<void(const std::string& step)>& progress = nullptr);

// The model as report.json writes it: pretty-printed, top-level keys in reading order (schema_version, title,
// generated_at, environment, plan, rule, verdicts, table, entries, then extra sections), and inside objects the
// identifying keys (entry, name, index...) first; other keys alphabetically.
std::string RenderJson(const ReportModel& report);
std::string RenderMarkdown(const ReportModel& model);
std::string RenderHtml(const ReportModel& model);

// Writes report.json, report-points.jsonl (`run_points`: RunPointsJsonLines of the model's input), report.md and
// report.html into out_dir (created if needed). Throws IoError naming the file that could not be written.
void WriteReport(const ReportModel& model, const std::string& run_points, const std::filesystem::path& out_dir);

}  // namespace evalsuite::reports
