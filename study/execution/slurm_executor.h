// The Slurm executor: a study's missing runs go to Slurm as one job array (`sbatch --array=0-N%K`), each array task
// running one run through `evalsuite study slurm-task` (slurm_task.h) on the shared filesystem, and this process,
// the coordinator, alone writes the store: it watches squeue and the run folders and records each run once it has
// ended, from its log and the task's end record (job id, node, exit, CPU and memory use). Stopped or killed, the
// array runs on; `study resume` records what ended meanwhile, watches what still runs and submits only what is
// missing (never started, cancelled, preempted, or died of its node). `study cancel` scancels the study's arrays.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/run_store.h"
#include "study/execution/progress.h"
#include "study/execution/run_recorder.h"
#include "study/execution/slurm_client.h"
#include "study/execution/study_run.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// Runs (or continues) the study's missing runs on Slurm, handing every attempt to the recorder. Returns false when
// stopped by `options.stop` (the submitted tasks keep running) or when planned runs are still missing.
bool ExecuteOnSlurm(RunRecorder& recorder, const StudyPlan& plan, const StudyRunOptions& options,
                    ProgressReporter& progress, StudyOutcome& outcome);

// The record of an array task whose run folder has no end record and which left Slurm's queue: what its log holds,
// and why it ended from Slurm's final state (nullopt: Slurm no longer knows it, the node vanished). Time limit: a
// failed run (timed out); out of memory or node failure: died of its environment (run again by resume);
// cancelled, preempted or unknown: an incomplete attempt (run again by resume).
store::RunRecord ConcludeTaskWithoutEnd(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                        const std::filesystem::path& run_dir,
                                        const std::optional<SlurmTaskState>& state);

// The record of a run whose task wrote its end record (the same status rules as a local run's).
store::RunRecord ConcludeTaskWithEnd(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                     const std::filesystem::path& run_dir);

// Cancels every array of the study that still has live tasks; returns their job ids.
std::vector<std::string> CancelStudyOnSlurm(const StudyPlan& plan);

}  // namespace evalsuite::study
