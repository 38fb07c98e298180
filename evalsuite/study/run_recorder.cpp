#include "evalsuite/study/run_recorder.h"

#include "evalsuite/study/study_runner.h"

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
    if (!r.run_dir.empty()) recorded_dirs_.insert(Normal(r.run_dir));
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
  if (!record.run_dir.empty()) recorded_dirs_.insert(Normal(record.run_dir));
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

}  // namespace evalsuite::study
