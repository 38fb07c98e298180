// The body of one Slurm array task (`evalsuite study slurm-task MANIFEST`; SLURM_ARRAY_TASK_ID picks the run). It
// runs the run exactly as the local executor does (BuildChildSpec: the same command, seeds, environment, run folder
// and run log, the entry's timeout) and leaves two small files in the run folder on the shared filesystem: the
// start record before the run and the end record after it (exit, wall time, CPU times, peak RSS, job id, node, and
// the GPU figures of gpu_sampler.h for this node's GPUs the task was given), and the contention record
// (contention_sampler.h: what the node did to the run while it ran), written when the run ends, also when Slurm
// stops the task.
// It never opens the store: the coordinator reads these files and records the run (slurm_executor.h).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "study/plans/study_plan.h"

namespace evalsuite::study {

constexpr const char* kTaskStartFile = "task-start.json";
constexpr const char* kTaskEndFile = "task-end.json";
// ContentionMonitor::RunFinished's record for the run, sampled on the node; the coordinator stores it as
// RunRecord::execution["contention"], as the local executor does.
constexpr const char* kTaskContentionFile = "task-contention.json";

// One submitted array: which run each array index runs and in which folder. Written by the coordinator under
// out_dir/.slurm/ before sbatch; `job_id` is added once sbatch answered.
struct ArrayTask {
  PlannedRun run;
  std::filesystem::path run_dir;
};
struct ArrayManifest {
  int sequence = 0;     // 1, 2, ... per study: array-0001.json
  std::string job_id;   // empty until submitted
  nlohmann::json plan;  // PlanToJson of the plan the tasks run
  // The study the runs are made for (run_folder_record.h StudyIdentity): each task writes it into its run folder's
  // record. Null in manifests written before run records existed.
  nlohmann::json study;
  std::vector<ArrayTask> tasks;
};

std::filesystem::path SlurmDir(const StudyPlan& plan);
std::filesystem::path ManifestPath(const StudyPlan& plan, int sequence);
void WriteManifest(const std::filesystem::path& file, const ArrayManifest& manifest);  // atomically (rename)
ArrayManifest ReadManifest(const std::filesystem::path& file);                         // InputError naming the file
// Every manifest of the study, oldest first.
std::vector<ArrayManifest> ReadManifests(const StudyPlan& plan);

// The Slurm facts of the running task, from its environment (SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID,
// SLURM_JOB_ID, SLURMD_NODENAME, SLURM_RESTART_COUNT).
nlohmann::json SlurmTaskFacts();

// Runs array task `task_id` of `manifest_file`; returns the task's exit code (0 once the end record is written,
// whatever the run did: the run's outcome is in the end record, Slurm's state says whether the task machinery
// worked). A task already ended (a requeue after its end record) does nothing; a folder a killed earlier try of
// this task left behind is moved aside to <run_dir>.attempt-<k> (run_execution.h's one rule) and the run starts
// afresh.
int RunSlurmTask(const std::filesystem::path& manifest_file, int task_id,
                 const std::filesystem::path& evalsuite_binary);

}  // namespace evalsuite::study
