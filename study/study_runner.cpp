#include "study/study_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "common/environment.h"
#include "common/error.h"
#include "entries/builtin_entries.h"
#include "study/execution/executor.h"
#include "study/execution/run_recorder.h"
#include "study/plans/run_producer.h"
#include "study/plans/stored_plan.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

std::atomic<bool> g_stop_requested{false};

extern "C" void RequestStop(int) { g_stop_requested.store(true); }

// One study at a time per run folder: a second `study run`/`resume` of the same study waits for nothing and
// fails clearly instead of racing for the same run folders. The kernel drops the lock when the holder dies.
class StudyLock {
 public:
  explicit StudyLock(const fs::path& out_dir) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw IoError(out_dir.string(), "cannot create the study's run folder: " + ec.message());
    file_ = (out_dir / ".evalsuite-study.lock").string();
    fd_ = open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IoError(file_, "cannot open the study lock");
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      close(fd_);
      throw UsageError(out_dir.string(), "another evalsuite process is running this study right now");
    }
  }
  ~StudyLock() { close(fd_); }

 private:
  std::string file_;
  int fd_ = -1;
};

nlohmann::json StudyEnvironment(const StudyPlan& plan) {
  nlohmann::json env = DescribeEnvironment();
  env["usable_cores"] = UsableCores();
  env["jobs"] = plan.jobs;
  env["threads_per_run"] = plan.threads;
  return env;
}

store::EntryRecord ToEntryRecord(const PlannedEntry& e) {
  store::EntryRecord record;
  record.name = e.name;
  record.description = e.description;
  record.source = "study";
  record.metric = e.metric;
  record.threshold = e.threshold;
  record.extra_thresholds = e.extra_thresholds;
  record.extra = {{"builtin", e.builtin}, {"epochs", e.epochs}, {"timeout_seconds", e.timeout_seconds}};
  if (e.train_subset) record.extra["train_subset"] = *e.train_subset;
  if (e.builtin) record.extra["validation_size"] = entries::kValidationImages;
  if (e.validation_size) record.extra["validation_size"] = *e.validation_size;
  if (!e.builtin) {
    record.extra["command"] = e.command;
    record.extra["log_format"] = e.log_format;
  }
  return record;
}

// Removes a store file this command created when the command fails before the study is in it: a failed `study run`
// leaves no empty store behind (its -wal and -shm included).
class CreatedStoreGuard {
 public:
  explicit CreatedStoreGuard(const fs::path& file) : file_(file) {
    std::error_code ec;
    created_ = !fs::exists(file, ec);
  }
  void Keep() { created_ = false; }
  // Closes `store` first, so that SQLite has let go of the files.
  void RemoveIfCreated(std::unique_ptr<store::RunStore>& store) {
    if (!created_) return;
    store.reset();
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(file_.string() + suffix, ec);
  }

 private:
  fs::path file_;
  bool created_ = false;
};

// `guard`, for a store this command created, is told to keep it once the run folders are checked: a study refused
// for folders another plan made leaves no new store behind.
StudyOutcome Execute(store::RunStore& store, const store::StudyInfo& info, const StudyPlan& plan,
                     const StudyRunOptions& options, StudyOutcome outcome, CreatedStoreGuard* guard = nullptr) {
  StudyLock lock(plan.out_dir);
  outcome.study_id = info.id;
  outcome.name = plan.name;
  outcome.planned = static_cast<int>(plan.schedule.size());
  for (const PlannedEntry& e : plan.entries) store.UpsertEntry(info.id, ToEntryRecord(e));
  // Every built-in run chooses its precision from the same recorded ceilings (entries/precision_choice.h).
  const bool any_builtin =
      std::any_of(plan.entries.begin(), plan.entries.end(), [](const PlannedEntry& e) { return e.builtin; });
  if (any_builtin) {
    const auto ceilings = info.environment.is_object() ? info.environment.find(kCeilingsKey) : info.environment.end();
    WriteCeilingsForRuns(ceilings != info.environment.end() ? *ceilings : nlohmann::json(nullptr),
                         fs::path(plan.out_dir) / kRunCeilingsFile);
  }
  std::unique_ptr<ProgressReporter> silent;
  ProgressReporter* progress = options.progress;
  if (!progress) {
    silent = MakeSilentProgress();
    progress = silent.get();
  }
  // A sequential study asks its stopping rule now (a resumed one may be answered already) and after every run the
  // recorder commits, leftovers found on resume included; the executor starts nothing more once it is answered.
  std::atomic<bool> answered{false};
  auto ask_sequential = [&] {
    outcome.sequential = DecideSequentialStop(store, plan);
    if (outcome.sequential && outcome.sequential->stop) answered.store(true);
  };
  ask_sequential();
  StudyRunOptions run_options = options;
  run_options.scheduler.answered = &answered;
  RunRecorder recorder(store, info.id, plan, outcome, options.before_commit, ask_sequential);
  recorder.RefuseFoldersOfOtherPlans();
  if (guard) guard->Keep();
  run_options.scheduler.study_identity = recorder.study_identity();
  const bool complete = MakeExecutor(plan, run_options)->Run(recorder, *progress, outcome);
  progress->StudyFinished();
  outcome.stopped = !complete && !answered.load();  // answered: stopped by its own rule, not cut short
  return outcome;
}

}  // namespace

namespace {

StudyOutcome RunStudyIn(std::unique_ptr<store::RunStore>& store, const StudyPlan& plan, const StudyRunOptions& options,
                        CreatedStoreGuard& guard) {
  StudyOutcome outcome;
  std::optional<store::StudyInfo> info = store->FindStudy(plan.name);
  if (info && info->name != plan.name) info.reset();  // a numeric name matched another study's id
  nlohmann::json plan_json = PlanToJson(plan);
  if (info) {
    if (info->kind != "study") {
      throw UsageError("name", "'" + plan.name + "' in " + options.store_file.string() +
                                   " is an imported study; pick another --name");
    }
    StudyPlan stored = DecodeStoredPlan(info->plan).Plan();
    std::vector<PlannedRun> recorded;
    for (const store::RunRecord& r : store->LoadRuns(info->id)) {
      if (!r.seeds.run) continue;
      recorded.push_back({r.entry, r.run_index, *r.seeds.run, std::nullopt});
    }
    const PlanChange change = ComparePlans(stored, plan, recorded);
    if (change.kind == PlanChange::Kind::kNewStudy) {
      // The recorded runs were made under the old plan: adding runs made another way would mix two studies.
      throw UsageError("name", "a study named '" + plan.name + "' exists in " + options.store_file.string() +
                                   " with a different plan (old -> new: " + change.what +
                                   "); its recorded runs were made under the old plan, so run the changed plan "
                                   "under another --name (more runs, a new entry or another analysis setting "
                                   "would continue it)");
    }
    outcome.plan_change = change.kind == PlanChange::Kind::kContinues ? change.what : "";
    // Same study (or the same runs and more): continue it, in the run folders it started in.
    StudyPlan continued = plan;
    continued.out_dir = stored.out_dir;
    plan_json = PlanToJson(continued);
    nlohmann::json environment = StudyEnvironment(continued);
    outcome.ceilings = ObtainCeilings(continued, info->environment, options.measure_ceilings);
    if (outcome.ceilings) environment[kCeilingsKey] = *outcome.ceilings;
    store->RecordInvocation(info->id, "study run", plan_json, environment);
    if (outcome.ceilings) {
      store->SetStudyEnvironmentKey(info->id, kCeilingsKey, *outcome.ceilings);
      info->environment[kCeilingsKey] = *outcome.ceilings;
    }
    outcome.resumed = true;
    return Execute(*store, *info, continued, options, outcome);
  }
  store::StudyInfo created;
  // Measured (or read) before the study exists: a bad ceilings file leaves nothing behind.
  nlohmann::json environment = StudyEnvironment(plan);
  outcome.ceilings = ObtainCeilings(plan, nlohmann::json::object(), options.measure_ceilings);
  if (outcome.ceilings) environment[kCeilingsKey] = *outcome.ceilings;
  created.id = store->CreateStudy(plan.name, "study", plan_json, environment);
  created.name = plan.name;
  created.kind = "study";
  created.environment = environment;
  return Execute(*store, created, plan, options, outcome, &guard);
}

}  // namespace

StudyOutcome RunStudy(const StudyPlan& plan, const StudyRunOptions& options) {
  // A ceilings file is read before anything is created: a missing or wrong one changes no store.
  if (plan.machine_ceilings != kMeasureCeilings && plan.machine_ceilings != kSkipCeilings) {
    (void)ReadCeilingsFile(plan.machine_ceilings);
  }
  CreatedStoreGuard guard(options.store_file);
  std::unique_ptr<store::RunStore> store = store::RunStore::Open(options.store_file);
  try {
    return RunStudyIn(store, plan, options, guard);
  } catch (...) {
    guard.RemoveIfCreated(store);
    throw;
  }
}

StudyOutcome ResumeStudy(const std::optional<std::string>& name, const StudyRunOptions& options) {
  auto store = store::RunStore::Open(options.store_file, /*create_if_missing=*/false);
  std::optional<store::StudyInfo> info;
  std::optional<StudyPlan> stored;
  if (name) {
    info = store->FindStudy(*name);
    if (!info) throw UsageError(*name, "no such study in " + options.store_file.string());
    if (info->kind != "study") throw UsageError(*name, "an imported study has nothing to resume");
  } else {
    std::vector<std::pair<store::StudyInfo, StudyPlan>> unfinished;
    for (store::StudyInfo& s : store->ListStudies()) {
      if (s.kind != "study") continue;
      StudyPlan plan = DecodeStoredPlan(s.plan).Plan();
      if (auto answered = DecideSequentialStop(*store, plan); answered && answered->stop) continue;
      if (CountFinishedPlannedRuns(plan, store->LoadRuns(s.id)) < static_cast<int>(plan.schedule.size())) {
        unfinished.emplace_back(std::move(s), std::move(plan));
      }
    }
    if (unfinished.empty()) throw UsageError("STUDY", "no unfinished study in " + options.store_file.string());
    if (unfinished.size() > 1) {
      std::string names;
      for (const auto& s : unfinished) names += (names.empty() ? "" : ", ") + s.first.name;
      throw UsageError("STUDY", "several unfinished studies (" + names + "): name the one to resume");
    }
    info = unfinished.front().first;
    stored = std::move(unfinished.front().second);
  }
  if (!stored) stored = DecodeStoredPlan(info->plan).Plan();
  StudyPlan plan = std::move(*stored);
  if (options.jobs) plan.jobs = *options.jobs;
  StudyOutcome outcome;
  nlohmann::json environment = StudyEnvironment(plan);
  outcome.ceilings = ObtainCeilings(plan, info->environment, options.measure_ceilings);
  if (outcome.ceilings) environment[kCeilingsKey] = *outcome.ceilings;
  store->RecordInvocation(info->id, "study resume", PlanToJson(plan), environment);
  if (outcome.ceilings) {
    store->SetStudyEnvironmentKey(info->id, kCeilingsKey, *outcome.ceilings);
    info->environment[kCeilingsKey] = *outcome.ceilings;
  }
  outcome.resumed = true;
  return Execute(*store, *info, plan, options, outcome);
}

StopOnSignals::StopOnSignals() {
  g_stop_requested.store(false);
  struct sigaction action {};
  action.sa_handler = RequestStop;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &action, nullptr);
}

StopOnSignals::~StopOnSignals() {
  for (int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);
}

const std::atomic<bool>* StopOnSignals::flag() const { return &g_stop_requested; }

}  // namespace evalsuite::study
