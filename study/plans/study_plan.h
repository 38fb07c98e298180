// A study's effective plan: every value resolved (thresholds, epochs, threads), every run's seed and the run order
// fixed. These are the types every part of study/plans/ reads; reading a study file into them is
// study_plan_loader.h's, and the stored form (PlanToJson, PlanFromJson) is study_plan_json.cpp's.
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
