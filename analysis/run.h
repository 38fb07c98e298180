// What a run is, for everything that reads runs: one training run of one entry (one attempt at one run index), its
// evaluations, how it ended (RunStatus) and what it used. The store loads its records into these, the importers'
// and the report's inputs are these, and every decision about runs (analysis/run_counting.h) takes these. Plain data:
// no SQLite, no LibTorch, no file formats.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/run_contention.h"
#include "analysis/run_precision.h"
#include "analysis/run_seeds.h"
#include "stats/curve.h"

namespace evalsuite::analysis {

// How an attempt ended. Decided once, when the attempt is recorded (analysis::StatusOfAttempt below), and stored
// as the run store's column `outcome`; every reader takes it from there.
enum class RunStatus {
  kReached,      // ended, and its log says it reached the target
  kNotReached,   // ended its budget below the target
  kFailed,       // trained (at least one evaluation) and then crashed, aborted, timed out or was killed
  kInterrupted,  // a study's attempt cut with the study (or requeued by Slurm): resume runs its index again
  kUnended,      // an imported log without its end record: nothing will resume it; MLPerf scores it as a failure
  kDidNotRun,    // died before its first evaluation, or of its environment (full disk, no memory) after it
};

// The status as outputs write it: "reached", "not_reached", "failed", "incomplete" (interrupted and unended: the
// name report.json has always used), "did_not_run".
const char* RunStatusName(RunStatus status);
// The store's column value: as RunStatusName, except "interrupted" and "unended" for the two kinds of incomplete.
const char* RunStatusKey(RunStatus status);
std::optional<RunStatus> ParseRunStatusKey(std::string_view key);

// How a log or a process ended, as the writer of an attempt knows it: the one enum for it, runlog::RunLog's status
// (written and read in a log as runlog::LogEndName's words), without the store's view.
enum class EndedAs { kReached, kNotReached, kFailed, kNoEnd };

// The one classification of an attempt, used where it is recorded. `did_not_run`: its process died before its
// first evaluation or of its environment (the executors say so: study/execution/failure_marking.h); `resumable`:
// it belongs to a study that resume continues (kind "study"), so an attempt without an end was interrupted, not
// unended.
RunStatus StatusOfAttempt(EndedAs ended, bool did_not_run, bool resumable);

// What a process's usage was (the run store's execution facts): wall time, CPU times of the process tree, peak
// resident set of its largest process.
struct RunUsage {
  double wall_seconds = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  long max_rss_kb = 0;
};

// One GPU's figures over one run, sampled with nvidia-smi (study/sampling/gpu_sampler.h); absent figures
// are ones nvidia-smi never gave ("[N/A]").
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

struct Run {
  int index = 0;    // run number within its entry (0-based)
  int attempt = 0;  // 0 for the first attempt at this index; resume and Slurm's requeue add later ones
  RunSeeds seeds;   // run, init, data_order, augmentation where recorded (analysis/run_seeds.h)
  RunStatus status = RunStatus::kReached;
  std::vector<stats::CurvePoint> points;  // (training seconds, metric)
  // The epoch of each point (fractional within an epoch), parallel to `points`; empty when the log has none.
  // Epochs to target separate the training's own variation (seeds) from the machine's (time per epoch).
  std::vector<double> epochs;
  double time_spent = 0;  // training seconds the run used in all
  double wall_seconds = 0;
  int threads = 0;
  std::string error;              // why a failed run failed (exit status, signal, stderr tail)
  std::string origin;             // where it came from: its run folder, or the log file it was imported from
  std::optional<RunUsage> usage;  // where it was measured (study runs), absent for imports
  std::optional<RunGpuUse> gpu;   // study runs recorded since GPU sampling exists
  // What the machine did while it ran (study/hardware/contention_sampler.h); absent where not measured.
  std::optional<RunContention> contention;
  // The precision it trained in and why (analysis/run_precision.h); none for other than built-in runs.
  std::optional<RunPrecision> precision;
};

// What an entry is, apart from its runs: the row the run store keeps per entry and study (store::EntryRecord is this
// type, so the store and the analysis cannot drift apart field by field).
struct EntryFacts {
  std::string name;  // entry name, e.g. "baseline" or "GIGABYTE/resnet"
  std::string description;
  std::string source = "study";  // "study", "mlperf", "dawnbench", "jsonl", ...
  std::string metric = "val_top1";
  std::string time_unit = "seconds";     // unit of CurvePoint::time and time_spent ("seconds", "minutes", "hours")
  double threshold = 0;                  // the entry's target
  std::vector<double> extra_thresholds;  // sensitivity grid (besides the default grid around the target)
  nlohmann::json extra = nlohmann::json::object();  // source-specific facts (MLPerf score, DAWNBench cost...)
};

// An entry and every attempt recorded for it.
struct Entry : EntryFacts {
  std::vector<Run> runs;  // every attempt, in the order recorded (by run index, then attempt)
};

}  // namespace evalsuite::analysis

namespace evalsuite::analysis {

// Whether an entry's time unit is a clock's ("seconds", "minutes", "hours"). Logs that record no clock (Lightning's
// and Keras's CSV loggers, MLflow steps) give their runs' progress in epochs, steps or samples instead: TTA is then in
// that unit, and time per epoch (and the split of TTA's variation between the seed and the machine) means nothing.
bool IsClockTimeUnit(std::string_view unit);

// The entry of that name; a UsageError naming it and the entries there are when none is.
const Entry& FindEntry(const std::vector<Entry>& entries, const std::string& name);

}  // namespace evalsuite::analysis
