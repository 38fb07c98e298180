#include "evalsuite/study/execution/run_recorder.h"

#include "evalsuite/study/execution/run_execution.h"
#include "evalsuite/study/execution/study_run.h"

namespace evalsuite::study {

RunRecorder::RunRecorder(RunStore& store, int64_t study_id, const StudyPlan& plan, StudyOutcome& outcome,
                         std::function<void()> before_commit, std::function<void()> after_finished)
    : store_(store),
      study_id_(study_id),
      plan_(plan),
      outcome_(outcome),
      before_commit_(std::move(before_commit)),
      after_finished_(std::move(after_finished)) {
  const std::vector<RunRecord> stored = store_.LoadRuns(study_id_);
  for (const RunRecord& r : stored) {
    // A run that did not run (died before its first evaluation) is run again, under a new attempt.
    if (store::IsDoneRun(r)) done_.insert({r.entry, r.run_index});
    if (!r.run_dir.empty()) recorded_dirs_[Normal(r.run_dir)] = r.run_dir;
  }
  outcome_.finished_before = CountFinishedPlannedRuns(plan, stored);
}

int RunRecorder::DonePlannedRuns() const {
  int done = 0;
  for (const PlannedRun& run : plan_.schedule) done += IsDone(run);
  return done;
}

void RunRecorder::Insert(const RunRecord& record) {
  store_.InsertRun(study_id_, record);
  if (!record.run_dir.empty()) recorded_dirs_[Normal(record.run_dir)] = record.run_dir;
  if (store::IsDoneRun(record)) done_.insert({record.entry, record.run_index});
}

void RunRecorder::Record(const RunRecord& record) {
  if (!IsFinishedRun(record)) {
    Insert(record);
    ++outcome_.interrupted_kept;
    return;
  }
  if (before_commit_) before_commit_();
  Insert(record);
  outcome_.CountFinished(plan_, record);
  if (after_finished_) after_finished_();
}

bool RunRecorder::RecordLeftover(const RunRecord& record) {
  Insert(record);
  if (!IsFinishedRun(record)) {
    ++outcome_.interrupted_kept;
    return false;
  }
  ++outcome_.ingested_on_resume;
  if (after_finished_) after_finished_();
  return store::IsDoneRun(record);
}

bool RunRecorder::RecordAsideTries(const std::filesystem::path& run_dir, const Conclude& conclude) {
  bool done = false;
  std::error_code ec;
  // Names the store records but whose folder is gone are skipped, not taken as the end of the tries.
  for (int k = 1;; ++k) {
    const std::filesystem::path aside = AsideDirFor(run_dir, k);
    const bool exists = std::filesystem::exists(aside, ec);
    if (!exists && !IsRecorded(aside)) break;
    if (exists && !IsRecorded(aside)) done = RecordLeftover(conclude(aside)) || done;
  }
  return done;
}

bool RunRecorder::ResumeRun(const PlannedRun& run, const Conclude& conclude) {
  const std::filesystem::path run_dir = RunDirFor(plan_, run.entry, run.index);
  bool done = RecordAsideTries(run_dir, conclude);
  std::error_code ec;
  if (!std::filesystem::exists(run_dir, ec)) return done;
  if (!IsRecorded(run_dir)) done = RecordLeftover(conclude(run_dir)) || done;
  if (!done) MoveAside(run_dir);
  return done;
}

std::filesystem::path RunRecorder::MoveAside(const std::filesystem::path& run_dir) {
  const std::filesystem::path aside =
      MoveAttemptAside(run_dir, [this](const std::filesystem::path& dir) { return IsRecorded(dir); });
  auto it = recorded_dirs_.find(Normal(run_dir));
  if (it != recorded_dirs_.end()) {
    // The folder moves first: a kill between the two (a file system and a database cannot change together) leaves
    // the try aside unrecorded, and the next resume records it again rather than losing it.
    store_.MoveRunDir(study_id_, it->second, aside.string());
    recorded_dirs_.erase(it);
    recorded_dirs_[Normal(aside)] = aside.string();
  }
  return aside;
}

}  // namespace evalsuite::study
