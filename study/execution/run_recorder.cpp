#include "study/execution/run_recorder.h"

#include <algorithm>

#include "common/error.h"
#include "study/execution/run_execution.h"
#include "study/execution/run_folder_record.h"
#include "study/execution/run_record_json.h"
#include "study/execution/study_run.h"

namespace evalsuite::study {

RunRecorder::RunRecorder(store::RunStore& store, int64_t study_id, const StudyPlan& plan, StudyOutcome& outcome,
                         std::function<void()> before_commit, std::function<void()> after_finished)
    : store_(store),
      study_id_(study_id),
      plan_(plan),
      outcome_(outcome),
      before_commit_(std::move(before_commit)),
      after_finished_(std::move(after_finished)),
      study_identity_(StudyIdentity(plan.name, store.file(), study_id)) {
  const std::vector<store::RunRecord> stored = store_.LoadRuns(study_id_);
  for (const store::RunRecord& r : stored) {
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

void RunRecorder::Insert(const store::RunRecord& record) {
  store_.InsertRun(study_id_, record);
  if (!record.run_dir.empty()) recorded_dirs_[Normal(record.run_dir)] = record.run_dir;
  if (store::IsDoneRun(record)) done_.insert({record.entry, record.run_index});
}

void RunRecorder::Record(const store::RunRecord& record) {
  if (!store::IsFinishedRun(record)) {
    Insert(record);
    ++outcome_.interrupted_kept;
    return;
  }
  if (before_commit_) before_commit_();
  Insert(record);
  outcome_.CountFinished(plan_, record);
  if (after_finished_) after_finished_();
}

bool RunRecorder::RecordLeftover(const store::RunRecord& record) {
  Insert(record);
  if (!store::IsFinishedRun(record)) {
    ++outcome_.interrupted_kept;
    return false;
  }
  ++outcome_.ingested_on_resume;
  if (after_finished_) after_finished_();
  return store::IsDoneRun(record);
}

std::vector<std::filesystem::path> RunRecorder::UnrecordedFolders(const std::filesystem::path& run_dir) const {
  std::vector<std::filesystem::path> folders;
  std::error_code ec;
  for (int k = 1;; ++k) {
    const std::filesystem::path aside = AsideDirFor(run_dir, k);
    const bool exists = std::filesystem::exists(aside, ec);
    if (!exists && !IsRecorded(aside)) break;
    if (exists && !IsRecorded(aside)) folders.push_back(aside);
  }
  if (std::filesystem::exists(run_dir, ec) && !IsRecorded(run_dir)) folders.push_back(run_dir);
  return folders;
}

void RunRecorder::RefuseFoldersOfOtherPlans() const {
  std::vector<std::string> refused;
  for (const PlannedRun& run : plan_.schedule) {
    if (IsDone(run)) continue;
    const PlannedEntry* entry = plan_.FindEntry(run.entry);
    if (entry == nullptr) continue;
    for (const std::filesystem::path& dir : UnrecordedFolders(RunDirFor(plan_, run.entry, run.index))) {
      if (std::optional<std::string> why = WhyNotAdoptable(dir, plan_, *entry, run)) {
        refused.push_back(dir.string() + ": " + *why);
      }
    }
  }
  if (refused.empty()) return;
  std::string text = std::to_string(refused.size()) + " run folder" + (refused.size() == 1 ? "" : "s") + " under " +
                     plan_.out_dir + " cannot be adopted by study '" + plan_.name + "' in " + store_.file().string() +
                     ", which has no record of " + (refused.size() == 1 ? "it" : "them");
  const std::size_t shown = std::min<std::size_t>(refused.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) text += "\n  " + refused[i];
  if (refused.size() > shown) text += "\n  ... and " + std::to_string(refused.size() - shown) + " more";
  text +=
      "\nNothing was run or recorded. Give the study a fresh folder (--out DIR), or move those folders away; "
      "evalsuite adopts a run folder only for the plan that made it";
  throw UsageError("--out", text);
}

void RunRecorder::NoteOrigin(const std::filesystem::path& dir) {
  std::optional<nlohmann::json> made_for = RecordedStudy(dir);
  if (!made_for || *made_for == study_identity_) return;
  ++outcome_.adopted_from_other_studies;
  const RecordedStudyName study = RecordedStudyNameFromJson(*made_for);
  const std::string origin = "study '" + study.name.value_or("?") + "' in " + study.store.value_or("?");
  if (outcome_.adopted_from.find(origin) == std::string::npos) {
    outcome_.adopted_from += (outcome_.adopted_from.empty() ? "" : ", ") + origin;
  }
}

bool RunRecorder::RecordAsideTries(const std::filesystem::path& run_dir, const Conclude& conclude) {
  bool done = false;
  // Names the store records but whose folder is gone are skipped, not taken as the end of the tries.
  for (const std::filesystem::path& dir : UnrecordedFolders(run_dir)) {
    if (dir == run_dir) continue;
    NoteOrigin(dir);
    done = RecordLeftover(conclude(dir)) || done;
  }
  return done;
}

bool RunRecorder::ResumeRun(const PlannedRun& run, const Conclude& conclude) {
  const std::filesystem::path run_dir = RunDirFor(plan_, run.entry, run.index);
  bool done = RecordAsideTries(run_dir, conclude);
  std::error_code ec;
  if (!std::filesystem::exists(run_dir, ec)) return done;
  if (!IsRecorded(run_dir)) {
    NoteOrigin(run_dir);
    done = RecordLeftover(conclude(run_dir)) || done;
  }
  if (!done) MoveAside(run_dir);
  return done;
}

std::filesystem::path RunRecorder::MoveAside(const std::filesystem::path& run_dir) {
  std::filesystem::path aside =
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
