#include "study/execution/executor.h"

#include <vector>

#include "study/execution/run_execution.h"
#include "study/execution/scheduler.h"
#include "study/execution/slurm_executor.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

// Child processes on this machine, at most `jobs` at once (scheduler.h).
class LocalExecutor : public Executor {
 public:
  LocalExecutor(const StudyPlan& plan, const StudyRunOptions& options) : plan_(plan), options_(options) {}

  bool Run(RunRecorder& recorder, ProgressReporter& progress, StudyOutcome& outcome) override {
    // A run folder the store does not know is a try a killed study left behind: one whose log is complete (it has
    // its end record: the study died between the run's end and its commit) is ingested as the finished run it is,
    // not run again; any other is kept as an interrupted attempt. A run still not done starts again in its own
    // folder, the earlier try moved aside (RunRecorder::ResumeRun).
    std::vector<PendingRun> pending;
    for (const PlannedRun& run : plan_.schedule) {
      if (recorder.IsDone(run)) continue;
      const PlannedEntry& entry = *plan_.FindEntry(run.entry);
      const bool done = recorder.ResumeRun(run, [&](const fs::path& dir) {
        std::optional<store::RunRecord> left = CollectCompletedOrphan(plan_, entry, run, dir);
        if (left) return *left;
        return CollectInterruptedRun(plan_, entry, run, dir,
                                     "interrupted: the study process ended before this run did");
      });
      if (!done) pending.push_back({run, RunDirFor(plan_, run.entry, run.index)});
    }
    // A sequential study whose question is answered (before, or by what was found on resume) starts no run.
    const int done = outcome.finished_before + outcome.ingested_on_resume;
    if (options_.scheduler.answered && options_.scheduler.answered->load()) {
      pending.clear();
      progress.StudyAlreadyAnswered(plan_.name, outcome.planned, done);
    } else {
      progress.StudyStarted(plan_.name, outcome.planned, done, plan_.jobs, plan_.threads);
    }
    SchedulerConfig config = options_.scheduler;
    config.jobs = plan_.jobs;
    config.evalsuite_binary = options_.evalsuite_binary;
    auto record = [&](const store::RunRecord& r) { recorder.Record(r); };
    return RunScheduled(plan_, pending, config, progress, record, record, options_.stop);
  }

 private:
  const StudyPlan& plan_;
  const StudyRunOptions& options_;
};

class SlurmExecutor : public Executor {
 public:
  SlurmExecutor(const StudyPlan& plan, const StudyRunOptions& options) : plan_(plan), options_(options) {}

  bool Run(RunRecorder& recorder, ProgressReporter& progress, StudyOutcome& outcome) override {
    return ExecuteOnSlurm(recorder, plan_, options_, progress, outcome);
  }

 private:
  const StudyPlan& plan_;
  const StudyRunOptions& options_;
};

}  // namespace

std::unique_ptr<Executor> MakeExecutor(const StudyPlan& plan, const StudyRunOptions& options) {
  if (plan.executor == kSlurmExecutor) return std::make_unique<SlurmExecutor>(plan, options);
  return std::make_unique<LocalExecutor>(plan, options);
}

}  // namespace evalsuite::study
