// Where a study's runs execute: `executor = "local"` (child processes of `study run`, the default) or "slurm" (one
// job array per submission, see slurm_executor.h), and the `[slurm]` table of a plan:
//
//   executor = "slurm"
//   [slurm]
//   partition = "gpu"                # sbatch --partition
//   account = "proj42"               # sbatch --account
//   time_limit = "02:00:00"          # sbatch --time, per run (Slurm kills a task past it: recorded as timed out)
//   cpus_per_task = 8                # sbatch --cpus-per-task; default: the plan's threads per run
//   gpus_per_task = 1                # sbatch --gpus-per-task
//   gres = "gpu:1"                   # sbatch --gres
//   mem = "16G"                      # sbatch --mem
//   max_concurrent = 4               # --array=...%K: tasks of the array running at once; 0 = Slurm decides
//   sbatch_options = ["--qos=long"]  # passed to sbatch as they are
//   poll_seconds = 5                 # how often the coordinator asks squeue and looks at run folders
//
// None of it changes a run's numbers, so it is not part of the plan's fingerprint.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "study/plans/toml_reader.h"

namespace evalsuite::study {

struct SlurmOptions {
  std::string partition;
  std::string account;
  std::string time_limit;
  int cpus_per_task = 0;  // 0: the plan's threads
  int gpus_per_task = 0;
  std::string gres;
  std::string mem;
  int max_concurrent = 0;
  std::vector<std::string> sbatch_options;
  double poll_seconds = 5;
};

constexpr const char* kLocalExecutor = "local";
constexpr const char* kSlurmExecutor = "slurm";

// Reads `executor` and `[slurm]` from a plan's root table (keys "executor" and "slurm" of it).
void ReadExecutorKeys(const toml::table& root, const TomlReader& reader, std::string& executor, SlurmOptions& slurm);

nlohmann::json SlurmOptionsToJson(const SlurmOptions& options);
// Plans stored before the table existed have none: defaults.
SlurmOptions SlurmOptionsFromJson(const nlohmann::json& json);

// The sbatch options the table stands for, in sbatch's --long=value spelling (the array and script are added by
// the executor). `threads` is the plan's threads per run (the default --cpus-per-task).
std::vector<std::string> SbatchResourceOptions(const SlurmOptions& options, int threads);

}  // namespace evalsuite::study
