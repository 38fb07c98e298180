// What one invocation of a study is given (StudyRunOptions) and what it did (StudyOutcome): shared by the runner
// (study/study_runner.h) and the executors that do the runs (local and Slurm).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/run_store.h"
#include "study/execution/progress.h"
#include "study/execution/scheduler.h"
#include "study/execution/sequential_stopping.h"
#include "study/plans/ceilings_record.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

constexpr const char* kDefaultStoreFile = "evalsuite.db";

struct StudyRunOptions {
  std::filesystem::path store_file = kDefaultStoreFile;
  std::filesystem::path evalsuite_binary;   // runs built-in entries (`evalsuite train`)
  ProgressReporter* progress = nullptr;     // silent when null
  const std::atomic<bool>* stop = nullptr;  // set from a signal handler: stop, keep what ran
  std::optional<int> jobs;                  // resume: runs at once (the plan's otherwise)
  // Jobs and binary are filled from the plan and the fields above. Its clock and sleep pace both executors' waits
  // (the local poll loop and the Slurm watch loop): tests pass their own.
  SchedulerConfig scheduler;
  // Measures the machine's ceilings once per study when its plan says "measure" and none are recorded yet
  // (ceilings_record.h); null: nothing is measured (a file or "skip" is still recorded).
  CeilingsProbe measure_ceilings;
  // Runs before each finished run is committed: a seam for tests that kill the study between a run's end and its
  // commit (the CLI sets it from its test hooks, cli/light/test_hooks.h). Empty: nothing.
  std::function<void()> before_commit;
};

struct StudyOutcome {
  int64_t study_id = 0;
  std::string name;
  int planned = 0;             // runs in the plan
  int finished_before = 0;     // already recorded when this invocation started
  int ran = 0;                 // finished by this invocation
  int failed = 0;              // of those, failed (crash, timeout, non-zero exit): analysis::CountsAsFailed
  int did_not_run = 0;         // of those, died before their first evaluation (not counted in failed)
  int ingested_on_resume = 0;  // complete runs a killed study had not recorded, read from their folders
  // Of the folders recorded on resume, those whose record names another study (the same producer, so the same runs:
  // a store made anew for the same plan), and which studies they name, for the summary line.
  int adopted_from_other_studies = 0;
  std::string adopted_from;
  // A study run again under a plan that continues it (plans/run_producer.h ComparePlans): what changed, for people.
  std::string plan_change;
  int not_started = 0;       // Slurm: array tasks that left the queue before their run started (resume submits them)
  int interrupted_kept = 0;  // incomplete attempts recorded (left by a killed study, or stopped now)
  bool resumed = false;      // the study existed already
  bool stopped = false;      // a stop was requested before all runs ran
  std::optional<nlohmann::json> ceilings;  // the machine ceilings this invocation recorded (none: already there)
  // A sequential study: its decision after this invocation (sequential_stopping.h); answered when it stopped.
  std::optional<StoppingDecision> sequential;
  bool complete() const { return finished_before + ran == planned; }
  // Counts a run this invocation finished (every executor calls it): ran, and failed or did_not_run.
  void CountFinished(const StudyPlan& plan, const store::RunRecord& record);
};

// Planned runs with a counted attempt in the store (analysis/run_counting.h): the runs resume does not redo.
int CountFinishedPlannedRuns(const StudyPlan& plan, const std::vector<store::RunRecord>& runs);

}  // namespace evalsuite::study
