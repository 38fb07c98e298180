// A study, parsed once from its TOML file (toml++), overridden by command-line flags and validated into an
// effective plan: every value resolved (thresholds, epochs, threads), every run's seed and the run order
// fixed. Every error names the file, the line and the key; unknown keys are errors (typos do not pass
// silently). The plan round-trips through JSON: it is stored with the results and `study resume` reads it.
//
//   name = "quick"                 # default: the file's stem
//   description = "..."
//   entries = ["baseline", "fast"] # built-in names, and/or tables (inline or [[entries]]):
//   # { name = "torch-mlp", command = "/usr/bin/python3 {study_dir}/x.py --seed {seed} --log {log}",
//   #   log_format = "jsonl", timeout_seconds = 600, description = "...", metric = "val_top1",
//   #   threshold = 0.85, extra_thresholds = [0.8], epochs = 3, train_subset = 5000, validation_size = 10000 }
//   # log_format = "regex" reads the command's standard output instead (regex_log_keys.h): log_regex = '...' (or
//   # an array), log_end_regex, log_time_unit = "seconds", log_time_kind = "elapsed", log_metric_unit = "fraction"
//   runs = 5                       # runs per entry
//   seed = 1                       # the study's base seed
//   threshold = 0.91               # default: each built-in entry's own
//   extra_thresholds = [0.90, 0.92]
//   epochs = 10                    # epoch budget; default: each built-in entry's own
//   train_subset = 10000           # optional: train on the first N training images
//   jobs = 2                       # runs at once; default: 2 (1 on a single core), see DefaultJobs
//   threads = 1                    # per run; default: cores / jobs
//   keep_models = false            # true: built-in runs save their model under run_dir/model
//   stop_at_target = false         # true: runs stop at the target (faster; no data above it)
//   evals_per_epoch = 1            # built-in entries: validation evaluations per epoch (finer TTA)
//   precision = "auto"             # built-in entries whose recipe uses bf16: "auto" trains them in bf16 only where
//                                  # a few steps of each form, timed with the study's ceilings, times the form's
//                                  # epochs to the target show bf16 sooner (entries/precision_choice.h), else fp32;
//                                  # "fp32" or "bf16" force it for every built-in entry
//   onednn_isa_cap = true          # runs inherit evalsuite's oneDNN ISA cap (common/onednn_isa_cap.h); false:
//                                  # they get EVALSUITE_ONEDNN_ISA_CAP=off and no cap set by evalsuite
//   timeout_seconds = 0            # per run, 0 = none; entries may set their own
//   devices = ["0", "1", "2", "3"] # accelerators, devices_per_run = 1 each (CUDA/HIP/ROCR_VISIBLE_DEVICES)
//   cpus_per_run = 0               # > 0: each run pinned to its own CPUs (sched_setaffinity)
//   gpu_sample_seconds = 1         # where nvidia-smi is on PATH: GPU memory and utilization every N s, 0 = off
//   cost_per_hour = 3.06           # price of the machine per hour: the report's cost per entry (DAWNBench)
//   machine_ceilings = "measure"   # the machine's ceilings for the report's MFU, recorded once per study
//                                  # (study/ceilings_record.h): "measure", "skip", or a file (relative to this one)
//                                  # that `evalsuite machine --json` wrote
//   executor = "local"             # or "slurm": runs as a Slurm job array, [slurm] table (slurm_options.h)
//   [stability]                    # the verdict's rule (stats/stability.h StabilityRule)
//   max_cov_upper = 0.10
//   min_hit_rate = 0.90
//   min_reached = 3
//   compare = [["fast", "baseline"]] # report sections: is A faster than B? (comparison_plan_keys.h)
//   [sequential]                   # stop when the question is answered: min_runs, max_runs, alpha, question
//   consecutive_evaluations = 1    # TTA's crossing: the metric at or above the target for k evaluations in a row
//                                  # (1 = the first crossing, DAWNBench); k > 1 needs stop_at_target = false
//   [variance]                     # vary sources of randomness separately (variance_design.h):
//   vary = ["init", "data_order"]  # a crossed design of `levels` seeds each, every cell run `repeats` times;
//   levels = 3                     # the plan's runs become levels^sources x repeats
//   repeats = 2
//   basis = "time"                 # what the verdict judges: "time" (TTA, DAWNBench) or "epochs" (epochs to target,
//                                  # which leaves the machine's speed out)
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"
#include "runlog/regex_log.h"
#include "stats/stability.h"
#include "study/plans/slurm_options.h"
#include "study/plans/variance_design.h"

namespace evalsuite::study {

// The ranges of the plan's counts, the same for a key in the file and for its flag (--runs, --jobs, ...).
constexpr int kMaxRuns = 10000;
constexpr int kMaxJobs = 256;
constexpr int kMaxThreads = 1024;
constexpr int kMaxEpochs = 100000;
constexpr int kMaxTrainSubset = 1000000000;

struct PlannedEntry {
  std::string name;
  bool builtin = true;
  std::string description;
  std::string command;                // external entries: the template ({seed}, {run_dir}, {threads}, ...)
  std::string log_format = "jsonl";   // external entries: how their log is read (log_formats.h)
  runlog::RegexLogOptions regex_log;  // log_format = "regex": patterns and units (checked when the plan is read)
  std::string metric = "val_top1";
  double threshold = 0;
  std::vector<double> extra_thresholds;
  int epochs = 0;  // 0: not set (external entry that does not use {epochs})
  std::optional<int> train_subset;
  // Images in the validation split the metric is measured on (external entries declare it; built-in ones use
  // entries::kValidationImages): the report gives the metric's binomial standard error at the target.
  std::optional<int> validation_size;
  double timeout_seconds = 0;  // 0: no timeout
};

struct PlannedRun {
  std::string entry;
  int index = 0;      // 0-based rerun number within the entry
  uint64_t seed = 0;  // passed to the entry as --seed / {seed}
  // In a [variance] design: each source's seed (--init-seed ... / {init_seed} ...), recorded with the run. Unset
  // outside one: built-in entries derive their streams from `seed` as they always have.
  std::optional<SourceSeeds> sources;
};

// A study that stops as soon as its question is answered (comparison_plan_keys.h, sequential_stopping.h).
using analysis::SequentialSettings;

struct StudyPlan {
  std::string name;
  std::string description;
  std::string study_file;  // absolute path of the TOML file (may be empty for plans built in code)
  std::string study_dir;   // its folder: {study_dir} in command templates
  std::string out_dir;     // run folders: out_dir/<entry>/run-<index>
  int runs = 5;
  uint64_t seed = 1;
  int jobs = 1;
  int threads = 1;
  bool keep_models = false;
  bool stop_at_target = false;
  int evals_per_epoch = 1;         // built-in entries; external ones get {evals_per_epoch} in their command
  std::string precision = "auto";  // built-in entries: "auto", "fp32" or "bf16" (entries/precision_choice.h)
  bool onednn_isa_cap = true;      // children inherit the cap evalsuite decided; false: none of evalsuite's setting
  // [stability], compare = [["A", "B"], ...] and [sequential] (comparison_plan_keys.h), typed once: what the study
  // asks of its runs, carried as they are to the sequential decision and the report. All fingerprinted.
  analysis::AnalysisSettings analysis;
  std::string executor = kLocalExecutor;  // where runs execute (slurm_options.h); not part of the fingerprint
  SlurmOptions slurm;
  std::optional<double> cost_per_hour;
  // "measure", "skip", or an absolute path to an `evalsuite machine --json` file (not fingerprinted).
  std::string machine_ceilings = "measure";
  // Local slots (not fingerprinted): each concurrent run gets devices_per_run of `devices` through
  // CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES, and cpus_per_run CPUs of this process's
  // affinity (sched_setaffinity) when cpus_per_run > 0. jobs defaults to devices / devices_per_run.
  std::vector<std::string> devices;
  int devices_per_run = 1;
  int cpus_per_run = 0;  // the machine's price per hour: the report's cost per entry (not fingerprinted)
  // How often each run's GPUs are sampled with nvidia-smi (gpu_sampler.h); 0: not sampled. Not fingerprinted.
  double gpu_sample_seconds = 1;
  std::vector<PlannedEntry> entries;
  std::vector<PlannedRun> schedule;  // every run, in the order they start

  const PlannedEntry* FindEntry(const std::string& name) const;
  const PlannedRun* FindRun(const std::string& entry, int index) const;
};

// Command-line flags that override the file.
struct PlanOverrides {
  std::optional<std::string> name;
  std::optional<int> runs;
  std::optional<int> jobs;
  std::optional<int> threads;
  std::optional<uint64_t> seed;
  std::optional<int> epochs;
  std::optional<int> train_subset;
  std::optional<std::string> out_dir;
  std::optional<bool> onednn_isa_cap;
  std::optional<std::string> executor;
  std::optional<std::vector<std::string>> devices;
  std::optional<std::string> machine_ceilings;          // --machine-ceilings: wins over the file
  std::optional<std::string> machine_ceilings_default;  // EVALSUITE_MACHINE_CEILINGS: when the file does not say
};

// Reads and validates the study file; throws InputError "file:line: key 'x': why" (IoError when unreadable).
// `cores` is what threads per run default from (cores / jobs, at least 1).
StudyPlan LoadStudyPlan(const std::filesystem::path& file, const PlanOverrides& overrides, int cores);
// The same from text (tests); source_name stands in for the file in messages and {study_dir} is its folder.
StudyPlan ParseStudyPlan(const std::string& toml_text, const std::string& source_name, const PlanOverrides& overrides,
                         int cores);

// The stored form (study_plan_json.cpp): what the store and the array manifests keep.
nlohmann::json PlanToJson(const StudyPlan& plan);
// Throws InputError naming the key when the stored plan is not one this evalsuite wrote. The strict part of
// DecodeStoredPlan (stored_plan.h), which every reader of a stored plan asks; tests call it directly.
StudyPlan PlanFromJson(const nlohmann::json& json);

// The parts of a plan that change results (everything but jobs and out_dir): two invocations with the same
// fingerprint run the same study.
nlohmann::json PlanFingerprint(const StudyPlan& plan);
// What differs between two fingerprints, for people: "entries[baseline].threshold 0.91 -> 0.95, runs 3 -> 4"
// (the schedule, derived from the rest, only when nothing else differs).
std::string DescribePlanDifferences(const nlohmann::json& old_fingerprint, const nlohmann::json& new_fingerprint);

// Runs at once when neither the file nor a flag says: 2 (1 on one core). bench/study_jobs_bench on 2 cores:
// `--jobs 2 --threads 1` finished the same runs 1.44x faster than `--jobs 1 --threads 2` (the small CNNs scale
// poorly over threads, and startup, data loading and evaluation are serial), so processes beat threads.
int DefaultJobs(int cores);

// Cores this process may use (its CPU affinity), at least 1.
int UsableCores();

}  // namespace evalsuite::study
