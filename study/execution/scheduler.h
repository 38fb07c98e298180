// Runs a study's pending runs as child processes, at most `jobs` at once, in the plan's order, on the calling
// thread (one poll loop: no threads, no shared state). Each ended run is handed over as a record ready to
// commit; a run past its timeout is killed and recorded failed; when a stop is requested (the study got
// SIGINT/SIGTERM) the running children are killed and handed over as incomplete attempts.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <vector>

#include "common/clock.h"
#include "store/run_store.h"
#include "study/execution/progress.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

struct PendingRun {
  PlannedRun run;
  std::filesystem::path run_dir;  // fresh folder for this attempt (created by the scheduler)
};

struct SchedulerConfig {
  int jobs = 1;
  std::filesystem::path evalsuite_binary;  // runs built-in entries
  double poll_seconds = 0.05;              // how often ended children are looked for
  double progress_seconds = 0.5;           // how often logs are tailed for the live line
  double kill_grace_seconds = 2;           // SIGTERM, then SIGKILL after this long
  // The loop's clock and sleep, as values (common/clock.h): tests may pass their own.
  SteadyClock now = SteadyNowSeconds;
  Sleeper sleep = RealSleep;
  // A second stop flag, set by the runner when a sequential study's question is answered: stops as `stop` does.
  const std::atomic<bool>* answered = nullptr;
  // The study the runs are made for (run_folder_record.h StudyIdentity): written into each run folder's record.
  nlohmann::json study_identity;
};

// Returns true when every pending run ran; false when stopped by `stop` (then every started run was handed to
// on_interrupted). Exceptions from the callbacks propagate after the children are killed.
bool RunScheduled(const StudyPlan& plan, const std::vector<PendingRun>& pending, const SchedulerConfig& config,
                  ProgressReporter& progress, const std::function<void(const store::RunRecord&)>& on_finished,
                  const std::function<void(const store::RunRecord&)>& on_interrupted, const std::atomic<bool>* stop);

}  // namespace evalsuite::study
