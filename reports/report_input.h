// What a stability report is built from: plain data, filled by the study store (evalsuite report) or by
// import, so reports/ never depends on where runs came from. The built model is JSON (reports/report.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "stats/curve.h"
#include "stats/stability.h"

namespace evalsuite::reports {

// What a run's processes used (the run store's execution facts): wall time, CPU times of the process tree, peak
// resident set of its largest process.
struct RunUsage {
  double wall_seconds = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  long max_rss_kb = 0;
};

// One GPU's figures over one run, sampled with nvidia-smi (evalsuite/study/gpu_sampler.h); absent figures are
// ones nvidia-smi never gave ("[N/A]").
struct GpuDeviceUse {
  std::string index;  // nvidia-smi's
  std::string uuid;
  int samples = 0;
  std::optional<double> memory_total_mib;
  std::optional<double> peak_memory_used_mib;
  std::optional<double> mean_utilization_percent;
  int utilization_samples = 0;  // the samples the mean is over
};

// A run's GPU sampling: not sampled (no nvidia-smi, or turned off) with the reason, or the figures per device.
struct RunGpuUse {
  bool sampled = false;
  std::string reason;  // why not sampled
  double interval_seconds = 0;
  int samples = 0;
  int failed_samples = 0;
  std::vector<GpuDeviceUse> devices;
};

struct RunInput {
  int index = 0;                                    // run number within its entry (0-based)
  nlohmann::json seeds = nlohmann::json::object();  // {"run":..,"init":..,"data_order":..,"augmentation":..}
  // "reached", "not_reached", "failed", "incomplete" (runlog::RunStatusName), or "did_not_run": the process died
  // before its first evaluation (shown with its cause, left out of the statistics).
  std::string status;
  std::vector<stats::CurvePoint> points;  // (training seconds, metric)
  // The epoch of each point (fractional within an epoch), parallel to `points`; empty when the log has none.
  // Epochs to target separate the training's own variation (seeds) from the machine's (time per epoch).
  std::vector<double> epochs;
  double time_spent = 0;  // training seconds the run used in all
  double wall_seconds = 0;
  int threads = 0;
  std::string error;  // why a failed run failed (exit status, signal, stderr tail)
  std::optional<RunUsage> usage;  // where it was measured (study runs), absent for imports
  std::optional<RunGpuUse> gpu;   // study runs recorded since GPU sampling exists
  // What the machine did while it ran (evalsuite/study/contention_sampler.h: other_busy_cores, steal_fraction,
  // load_average_1m {mean, max}, cpu_pressure_some, cores); null where not measured (imports, Slurm, older runs).
  nlohmann::json contention = nullptr;
  // The precision it trained in and why (evalsuite/entries/precision_choice.h); null for other than built-in runs.
  nlohmann::json precision = nullptr;
};

struct EntryInput {
  std::string name;  // entry name, e.g. "baseline" or "GIGABYTE/resnet"
  std::string description;
  std::string source = "study";  // "study", "mlperf", "dawnbench", "jsonl"
  std::string metric = "val_top1";
  std::string time_unit = "seconds";     // unit of CurvePoint::time and time_spent ("seconds", "minutes", "hours")
  double threshold = 0;                  // the entry's target
  std::vector<double> extra_thresholds;  // sensitivity grid (besides the default grid around the target)
  std::vector<RunInput> runs;
  nlohmann::json extra = nlohmann::json::object();  // source-specific facts (MLPerf score, DAWNBench cost...)
};

struct StabilityReportInput {
  std::string title = "evalsuite stability report";
  nlohmann::json environment = nlohmann::json::object();
  nlohmann::json plan = nlohmann::json::object();  // the effective, validated study plan
  stats::StabilityRule rule;
  std::vector<EntryInput> entries;
  // Sections produced elsewhere and placed in the model as they are, e.g. "generalization" (an array of
  // evaluated image sets, see reports/generalization_section.h).
  nlohmann::json extra_sections = nlohmann::json::object();
};

}  // namespace evalsuite::reports
