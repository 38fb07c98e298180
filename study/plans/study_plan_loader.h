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

#include <filesystem>
#include <string>

#include "study/plans/study_plan.h"

namespace evalsuite::study {

// Reads and validates the study file; throws InputError "file:line: key 'x': why" (IoError when unreadable).
// `cores` is what threads per run default from (cores / jobs, at least 1).
StudyPlan LoadStudyPlan(const std::filesystem::path& file, const PlanOverrides& overrides, int cores);
// The same from text (tests); source_name stands in for the file in messages and {study_dir} is its folder.
StudyPlan ParseStudyPlan(const std::string& toml_text, const std::string& source_name, const PlanOverrides& overrides,
                         int cores);

}  // namespace evalsuite::study
