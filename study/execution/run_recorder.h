// The coordinator's one way into the store. An executor (local processes, a Slurm array) produces run folders and
// hands over what it concludes from each (a finished run, a try cut short, a folder a killed study left behind);
// the recorder alone commits it (RunStore::InsertRun is called here and nowhere else in study/) and counts it in
// the invocation's outcome. It also says, from the store as it was when the invocation started plus what it has
// recorded since, which planned runs are done and which run folders are recorded: resume's "ingest what finished,
// redo what is missing" is the same for every executor.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store/run_store.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

struct StudyOutcome;

class RunRecorder {
 public:
  // Reads the study's stored attempts; sets outcome.finished_before. `before_commit` runs before each finished run
  // is committed (a seam for tests that kill the study between a run's end and its commit); `after_finished` after
  // each finished run is committed (a sequential study asks its stopping rule there); either may be empty.
  RunRecorder(store::RunStore& store, int64_t study_id, const StudyPlan& plan, StudyOutcome& outcome,
              std::function<void()> before_commit = {}, std::function<void()> after_finished = {});

  // A run's attempt that ended while this invocation watched it, or that it cut short (an incomplete attempt).
  void Record(const store::RunRecord& record);
  // An attempt folder found on resume that the store did not have; returns whether the run is now done.
  bool RecordLeftover(const store::RunRecord& record);

  // Before anything runs or is recorded: every folder of a planned run that is not done and that the store does not
  // know must have been made by this very run's producer (run_folder_record.h); otherwise a UsageError names the
  // folders, what differs and what to do, and nothing is adopted, run or recorded.
  void RefuseFoldersOfOtherPlans() const;
  // The study this recorder records into, as run folders' records name it (run_folder_record.h StudyIdentity).
  const nlohmann::json& study_identity() const { return study_identity_; }

  // Resume of a planned run that is not done, the same for every executor (run_execution.h's folder rule): records
  // each of the run's folders the store does not know, as `conclude(dir)` reads it, first the tries moved
  // aside (<run_dir>.attempt-<k>), then run_dir itself; when the run is still not done, the try in run_dir (recorded
  // now or before) is moved aside, so that the run starts again in run_dir. Returns whether the run is done.
  using Conclude = std::function<store::RunRecord(const std::filesystem::path& dir)>;
  bool ResumeRun(const PlannedRun& run, const Conclude& conclude);
  // Records the tries moved aside from `run_dir` that the store does not know (a requeued Slurm task moves its own
  // cut try aside); returns whether one of them made the run done.
  bool RecordAsideTries(const std::filesystem::path& run_dir, const Conclude& conclude);
  // Moves the try in `run_dir` aside (MoveAttemptAside) and re-points the store's records of it there, so nothing
  // recorded loses its files; returns where it went.
  std::filesystem::path MoveAside(const std::filesystem::path& run_dir);

  // The planned run has a done attempt (store::IsDoneRun) in the store.
  bool IsDone(const PlannedRun& run) const { return done_.count({run.entry, run.index}) > 0; }
  // Planned runs that are done.
  int DonePlannedRuns() const;
  // The folder is some attempt's recorded run_dir.
  bool IsRecorded(const std::filesystem::path& run_dir) const { return recorded_dirs_.count(Normal(run_dir)) > 0; }

 private:
  static std::string Normal(const std::filesystem::path& dir) { return dir.lexically_normal().string(); }
  void Insert(const store::RunRecord& record);
  // The folders of `run_dir`'s run that exist and that the store does not know: its tries moved aside, then itself.
  std::vector<std::filesystem::path> UnrecordedFolders(const std::filesystem::path& run_dir) const;
  // Notes, in the outcome, a leftover folder that was made for another study (the same producer: adopted).
  void NoteOrigin(const std::filesystem::path& dir);

  store::RunStore& store_;
  int64_t study_id_;
  const StudyPlan& plan_;
  StudyOutcome& outcome_;
  std::function<void()> before_commit_;
  std::function<void()> after_finished_;
  std::set<std::pair<std::string, int>> done_;
  std::map<std::string, std::string> recorded_dirs_;  // run_dir normalized -> as the store holds it
  nlohmann::json study_identity_;
};

}  // namespace evalsuite::study
