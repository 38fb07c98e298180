// The stability report model as plain structs: BuildStabilityReport (report_builder.h) fills it, ToJson (report_json.h)
// writes it as report.json, and the outline and every section read its fields by name, so a field the model lacks is
// a compile error, not a "—". Statistics keep the types stats/ computes them in; a non-finite double or an empty
// optional is "undefined" and serializes as null (common/json_number.h), and the renderers print it as "—".
// Parts still carried as JSON are marked "JSON:" below: user data echoed as it came (environment, plan, seeds,
// extra), and the sections not typed yet.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_settings.h"
#include "analysis/run_contention.h"
#include "analysis/run_precision.h"
#include "analysis/sequential_decision.h"
#include "analysis/variance_sources.h"
#include "reports/generalization_section.h"
#include "reports/hardware_model.h"
#include "stats/curve.h"
#include "stats/entry_comparison.h"
#include "stats/improvement.h"
#include "stats/interval.h"
#include "stats/stability.h"
#include "stats/stability_statistics.h"
#include "stats/variation_decomposition.h"

namespace evalsuite::reports {

// Json members: clang-tidy's bugprone-exception-escape flags the implicit (noexcept) special members of the
// structs below that hold nlohmann::json members; nlohmann's move constructor and assignment are noexcept, and the
// check cannot see through them. Marked where it fires rather than switched off for the whole tree.

// One entry's verdict card (model "verdicts").
struct VerdictModel {
  std::string entry;
  stats::StabilityVerdict verdict;  // result, criteria, reasons (with the report's notes appended), runs needed
  std::string basis;                // "time" or "epochs": what the verdict was judged on (stats/entry_verdict.h)
  std::string first_line;           // the machine's part, said first (reports/machine_noise.h); empty: null
  std::string result_on_epochs;     // the verdict judged on epochs to target; empty: null
  std::size_t runs = 0;             // of the judged statistics
  std::size_t reached = 0;
  double threshold = 0;
  std::optional<double> cov;
  std::optional<stats::Interval> cov_interval;
};

// One row of the Tables 2-3 view (model "table").
struct TableRowModel {
  std::string entry, metric, time_unit, progress_unit;
  double threshold = 0;
  std::optional<std::size_t> busy_runs;  // none when no run's contention was measured
  // One value per statistic of stats::StabilityStatistics(), in that table's order.
  std::vector<stats::StatisticValue> statistics;
};

// One run's figures; its evaluations are in the side file (reports/run_curves.h), their count here.
struct RunModel {  // NOLINT(bugprone-exception-escape): json members, see the top
  int index = 0;
  analysis::RunSeeds seeds;  // as recorded
  std::string status;        // analysis::RunStatusName
  bool counted = false;
  std::optional<double> tta;
  std::optional<double> epochs_to_target;  // null unless the run logged epochs
  double time_spent = 0;
  double wall_seconds = 0;
  int threads = 0;                                    // 0: unknown (imports)
  std::string error;                                  // empty: null
  std::optional<analysis::RunContention> contention;  // the run's contention record as measured, absent where not
  std::optional<analysis::RunPrecision> precision;    // none for other than built-in runs
  std::size_t evaluations = 0;
};

// The validation metric's sampling noise at the target (reports/report_sections.h ThresholdNoise).
struct ThresholdNoiseModel {       // NOLINT(bugprone-exception-escape): json members, see the top
  nlohmann::json validation_size;  // JSON: the entry's extra.validation_size echoed as given; null when unknown
  std::optional<double> standard_error;
  std::vector<double> thresholds_within;  // grid thresholds within one standard error of the target
  bool target_within_noise_of_grid = false;
  std::size_t runs_fell_back = 0;
};

struct SensitivityRowModel {
  stats::StabilityStats stats;
  bool within_noise_of_target = false;
  bool is_target = false;
};

// The threshold grid (reports/sensitivity_grid.h) and the statistics at each threshold.
struct SensitivityModel {
  double step = 0;
  int steps_below = 0, steps_above = 0;
  std::vector<double> extra_thresholds;
  std::vector<SensitivityRowModel> thresholds;
};

// A run an entry's chart draws (reports/run_curves.h): its evaluations, and its role when it stands for others.
struct DrawnRunModel {
  int index = 0;
  std::string status;
  bool counted = false;
  std::optional<double> tta;
  std::string role;  // "fastest", "median", "slowest", "did not reach"; empty (null) when every run is drawn
  std::vector<stats::CurvePoint> points;
};

// One time of the band: the counted runs still training then and the quantiles of their metric (absent when none).
struct BandRowModel {
  double time = 0;
  std::size_t runs = 0;
  std::optional<double> q10, q25, median, q75, q90;
};

// What an entry's chart draws: every run up to kRunsDrawnInFull runs, beyond a band of quantiles and a few runs.
struct CurvesModel {
  std::size_t runs = 0;
  double max_time = 0;
  double metric_min = 0, metric_max = 0;  // non-finite when no run has an evaluation
  std::vector<DrawnRunModel> drawn;
  std::string drawn_rule;
  bool banded = false;
  std::size_t band_runs = 0;  // the counted runs the band is over
  std::vector<BandRowModel> band;
};

// Mean and largest value of one contention figure over the runs that recorded it.
struct MeanMaxModel {
  double mean = 0, max = 0;
};

// What the machine did during an entry's counted runs (reports/machine_noise.h), over the runs that have a record.
struct ContentionSummaryModel {
  std::size_t runs_measured = 0, busy_runs = 0;
  std::optional<MeanMaxModel> other_busy_cores, steal_fraction, load_average_1m, cpu_pressure_some;
  std::optional<double> cores;  // the most cores a run had
};

// An imported run of an MLPerf entry as the importer described it (its extra.run_details); text as recorded.
struct MlperfRunDetailModel {
  std::string file, status;
  std::optional<std::string> reason;  // none: not given
};

// The importer's MLPerf facts of an entry (its extra, importer/), read once by ParseMlperfFacts
// (reports/mlperf_table.h). Text fields hold what the importer wrote (a number as its JSON text); none: not given.
struct MlperfFactsModel {
  std::optional<std::string> ruleset, ruleset_source, division;
  std::optional<double> raw_minutes, published_scaling_factor, official_minutes;
  std::optional<std::string> official_note;
  std::optional<double> median_samples_per_second, global_batch_size;
  std::string throughput_runs, throughput_method, throughput_interval;
  std::optional<std::string> rcp_verdict;
  std::string rcp_message;
  std::optional<std::string> rcp_reference;
  std::optional<double> rcp_mean, rcp_stdev, min_epochs, submission_mean_epochs, norm_factor;
  std::vector<MlperfRunDetailModel> run_details;
};

struct EntryModel {  // NOLINT(bugprone-exception-escape): json members, see the top
  std::string name, description, source, metric, time_unit, progress_unit;
  double threshold = 0;
  nlohmann::json extra;  // JSON: the entry's source-specific facts as recorded (MLPerf score, validation size...)
  std::optional<MlperfFactsModel> mlperf;  // the importer's MLPerf facts in `extra`, read once
  std::vector<RunModel> runs;
  CurvesModel curves;
  stats::StabilityStats stats;
  std::optional<stats::StabilityStats> epochs_to_target;  // unless every counted run logged epochs: null
  ThresholdNoiseModel threshold_noise;
  stats::VariationDecomposition variation;
  std::optional<ContentionSummaryModel> contention;  // none when no counted run's machine was measured
  std::vector<stats::ExpectedBest> expected_best;
  SensitivityModel sensitivity;
};

// Probability of improvement between two entries (model "comparisons").
struct EntryComparisonModel {
  std::string a, b;
  std::size_t runs_a = 0, runs_b = 0;
  stats::ImprovementProbability probability;
};

// One GPU over an entry's sampled runs (reports/gpu_use.h): the peak of its runs' peaks, the sample-weighted mean.
struct GpuDeviceTotalsModel {
  std::string index, uuid;  // nvidia-smi's
  int runs = 0, samples = 0;
  std::optional<double> memory_total_mib, peak_memory_used_mib, mean_utilization_percent;
};

struct GpuRunDeviceModel {
  std::string index;
  int samples = 0;
  std::optional<double> peak_memory_used_mib, mean_utilization_percent;
};

struct GpuRunModel {
  int index = 0, samples = 0, failed_samples = 0;
  std::vector<GpuRunDeviceModel> devices;
};

// What an entry's runs' GPUs used; a run that was not sampled is counted apart, never as zero use.
struct EntryGpuModel {
  int runs_sampled = 0, runs_not_sampled = 0;
  std::string not_sampled_reason;          // the first unsampled run's; empty: null
  std::optional<double> interval_seconds;  // none when no run was sampled
  int samples = 0, failed_samples = 0;
  std::vector<GpuDeviceTotalsModel> devices;
  std::vector<GpuRunModel> runs;
};

// An entry's row of the cost section (reports/cost_section.h); money is none without a price.
struct CostEntryModel {
  std::string entry;
  int runs_measured = 0;
  double wall_seconds_total = 0, wall_seconds_per_run = 0, cpu_seconds_total = 0, cpu_seconds_per_run = 0;
  double peak_rss_mb = 0;
  std::optional<double> cost_total, cost_to_target, cost_per_success;
  std::optional<EntryGpuModel> gpu;  // none when no run of the entry has a GPU record
};

struct CostModel {
  std::optional<double> cost_per_hour;  // the plan's price of the machine per hour; none when it has none
  std::vector<CostEntryModel> entries;
};

// One pair the plan names (`compare = [["A", "B"]]`), answered by analysis/pair_answer.h, or why it could not be.
struct ComparePairModel {
  std::string a, b;
  std::string error;  // not empty: not compared, and why (nothing else is set then)
  stats::EntryComparison comparison;
  bool sequential = false;                         // the sequential study's pair
  std::size_t after_look_a = 0, after_look_b = 0;  // its counted runs not in the deciding look
};

// A sequential study's question and the decision of its looks (analysis/sequential_decision.h).
struct SequentialModel {
  analysis::SequentialSettings question;
  analysis::SequentialOutcome outcome;
};

// The report's "Is A faster than B?" part (reports/comparison_section.h).
struct CompareModel {
  std::vector<ComparePairModel> pairs;
  std::optional<SequentialModel> sequential;
};

// A row of the Methods table.
struct MethodModel {
  std::string name, formula, source;
};

// One entry's sources of variance (reports/variance_section.h).
struct EntryVarianceModel {
  std::string entry;
  analysis::VarianceSources sources;
};

struct ReportModel {
  int schema_version = 1;
  std::string title = "evalsuite report";
  std::string generated_at;
  nlohmann::json environment = nlohmann::json::object();  // JSON: DescribeEnvironment() or the study's record
  nlohmann::json plan = nlohmann::json::object();         // JSON: the effective plan as the store holds it
  stats::StabilityRule rule;
  std::string points_file;
  std::vector<VerdictModel> verdicts;
  std::vector<TableRowModel> table;
  std::vector<EntryModel> entries;
  std::vector<EntryComparisonModel> comparisons;
  std::vector<MethodModel> methods;
  std::optional<CompareModel> compare;  // none when the plan names no pair and is not sequential
  std::optional<CostModel> cost;        // none when no run's usage was measured (reports/cost_section.h)
  // Each entry's sources of variance (reports/variance_section.h); empty unless the plan is a variance design.
  std::vector<EntryVarianceModel> variance_sources;
  // JSON: the sections made elsewhere, by name (generalization, hardware with the study's ceilings applied, ...), as
  // report.json shows them.
  nlohmann::json sections = nlohmann::json::object();
  // The generalization section as the renderers read it (ParseGeneralizationSection); empty when none.
  std::vector<ImageSetModel> generalization;
  // The hardware section (the study's ceilings applied) as the renderers read it (ParseHardwareSection); none when
  // the model has none to show.
  std::optional<HardwareSectionModel> hardware;
};

}  // namespace evalsuite::reports
