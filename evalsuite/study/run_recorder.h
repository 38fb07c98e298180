// The coordinator's one way into the store. An executor (local processes, a Slurm array) produces run folders and
// hands over what it concludes from each (a finished run, a try cut short, a folder a killed study left behind);
// the recorder alone commits it (RunStore::InsertRun is called here and nowhere else in study/) and counts it in
// the invocation's outcome. It also says, from the store as it was when the invocation started plus what it has
// recorded since, which planned runs are done and which run folders are recorded: resume's "ingest what finished,
// redo what is missing" is the same for every executor.
#pragma once

#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <utility>

#include "evalsuite/store/run_store.h"
#include "evalsuite/study/study_plan.h"

namespace evalsuite::study {

struct StudyOutcome;

class RunRecorder {
 public:
  // Reads the study's stored attempts; sets outcome.finished_before. `before_commit` runs before each finished run
  // is committed (a seam for tests that kill the study between a run's end and its commit); `after_finished` after
  // each finished run is committed (a sequential study asks its stopping rule there); either may be empty.
  RunRecorder(RunStore& store, int64_t study_id, const StudyPlan& plan, StudyOutcome& outcome,
              std::function<void()> before_commit = {}, std::function<void()> after_finished = {});

  // A run's attempt that ended while this invocation watched it, or that it cut short (an incomplete attempt).
  void Record(const RunRecord& record);
  // An attempt folder found on resume that the store did not have; returns whether the run is now done.
  bool RecordLeftover(const RunRecord& record);

  // The planned run has a done attempt (store::IsDoneRun) in the store.
  bool IsDone(const PlannedRun& run) const { return done_.count({run.entry, run.index}) > 0; }
  // Planned runs that are done.
  int DonePlannedRuns() const;
  // The folder is some attempt's recorded run_dir.
  bool IsRecorded(const std::filesystem::path& run_dir) const { return recorded_dirs_.count(Normal(run_dir)) > 0; }

 private:
  static std::string Normal(const std::filesystem::path& dir) { return dir.lexically_normal().string(); }
  void Insert(const RunRecord& record);

  RunStore& store_;
  int64_t study_id_;
  const StudyPlan& plan_;
  StudyOutcome& outcome_;
  std::function<void()> before_commit_;
  std::function<void()> after_finished_;
  std::set<std::pair<std::string, int>> done_;
  std::set<std::string> recorded_dirs_;
};

}  // namespace evalsuite::study
