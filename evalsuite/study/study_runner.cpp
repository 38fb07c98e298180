#include "evalsuite/study/study_runner.h"

#include <thread>

#include <cstdlib>

#include <chrono>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include "evalsuite/common/environment.h"
#include "evalsuite/common/error.h"
#include "evalsuite/entries/builtin_entries.h"
#include "evalsuite/study/run_execution.h"
#include "evalsuite/study/slurm_executor.h"

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

EntryRecord ToEntryRecord(const PlannedEntry& e) {
  EntryRecord record;
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

std::string DescribeDifferences(const nlohmann::json& stored, const nlohmann::json& wanted) {
  std::string keys;
  for (auto it = wanted.begin(); it != wanted.end(); ++it) {
    if (!stored.contains(it.key()) || stored[it.key()] != it.value()) keys += (keys.empty() ? "" : ", ") + it.key();
  }
  return keys.empty() ? "its layout" : keys;
}

// For tests of a kill between a run's end and its commit: EVALSUITE_TEST_PAUSE_BEFORE_COMMIT_MS holds each commit.
void PauseBeforeCommitForTests() {
  if (const char* ms = std::getenv("EVALSUITE_TEST_PAUSE_BEFORE_COMMIT_MS")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
  }
}

StudyOutcome Execute(RunStore& store, const StudyInfo& info, const StudyPlan& plan, const StudyRunOptions& options,
                     StudyOutcome outcome) {
  StudyLock lock(plan.out_dir);
  outcome.study_id = info.id;
  outcome.name = plan.name;
  outcome.planned = static_cast<int>(plan.schedule.size());
  for (const PlannedEntry& e : plan.entries) store.UpsertEntry(info.id, ToEntryRecord(e));
  // Every built-in run chooses its precision from the same recorded ceilings (entries/precision_choice.h).
  const bool any_builtin = std::any_of(plan.entries.begin(), plan.entries.end(),
                                       [](const PlannedEntry& e) { return e.builtin; });
  if (any_builtin) {
    const auto ceilings = info.environment.is_object() ? info.environment.find(kCeilingsKey) : info.environment.end();
    WriteCeilingsForRuns(ceilings != info.environment.end() ? *ceilings : nlohmann::json(nullptr),
                         fs::path(plan.out_dir) / kRunCeilingsFile);
  }
  if (plan.executor == kSlurmExecutor) {
    std::unique_ptr<ProgressReporter> silent;
    ProgressReporter* progress = options.progress;
    if (!progress) {
      silent = MakeSilentProgress();
      progress = silent.get();
    }
    const bool all_ended = ExecuteOnSlurm(store, info.id, plan, options, *progress, outcome);
    progress->StudyFinished();
    // Cancelled, preempted or never-started tasks leave runs missing: `study resume` submits them again.
    outcome.stopped = !all_ended || CountFinishedPlannedRuns(plan, store.LoadRuns(info.id)) < outcome.planned;
    return outcome;
  }

  std::vector<RunRecord> stored = store.LoadRuns(info.id);
  std::set<std::pair<std::string, int>> finished;
  std::set<std::string> stored_dirs;
  for (const RunRecord& r : stored) {
    // A run that did not run (died before its first evaluation) is run again, under a new attempt.
    if (IsFinishedRun(r) && !DidNotRun(r)) finished.insert({r.entry, r.run_index});
    if (!r.run_dir.empty()) stored_dirs.insert(fs::path(r.run_dir).lexically_normal().string());
  }
  outcome.finished_before = CountFinishedPlannedRuns(plan, stored);

  // An attempt folder the store does not know is a run a killed study left behind: a run whose log is complete
  // (it has its end record: the study died between the run's end and its commit) is ingested as the finished run
  // it is, not run again; any other is kept as an interrupted attempt.
  std::vector<PendingRun> pending;
  for (const PlannedRun& run : plan.schedule) {
    if (finished.count({run.entry, run.index})) continue;
    const PlannedEntry& entry = *plan.FindEntry(run.entry);
    int attempt = 0;
    bool ingested = false;
    for (;; ++attempt) {
      fs::path dir = RunDirFor(plan, run.entry, run.index, attempt);
      std::error_code ec;
      if (!fs::exists(dir, ec)) break;
      if (stored_dirs.count(dir.lexically_normal().string())) continue;
      RunRecord left = CollectInterruptedRun(plan, entry, run, dir,
                                             "interrupted: the study process ended before this run did");
      if (std::optional<RunRecord> complete = CollectCompletedOrphan(plan, entry, run, dir)) {
        left = std::move(*complete);
        ingested = !DidNotRun(left);
        ++outcome.ingested_on_resume;
      } else {
        ++outcome.interrupted_kept;
      }
      store.InsertRun(info.id, left);
    }
    if (ingested) continue;
    pending.push_back({run, RunDirFor(plan, run.entry, run.index, attempt)});
  }

  std::unique_ptr<ProgressReporter> silent;
  ProgressReporter* progress = options.progress;
  if (!progress) {
    silent = MakeSilentProgress();
    progress = silent.get();
  }
  progress->StudyStarted(plan.name, outcome.planned, outcome.finished_before + outcome.ingested_on_resume, plan.jobs,
                         plan.threads);
  SchedulerConfig config = options.scheduler;
  config.jobs = plan.jobs;
  config.evalsuite_binary = options.evalsuite_binary;
  bool all_ran = RunScheduled(
      plan, pending, config, *progress,
      [&](const RunRecord& record) {
        PauseBeforeCommitForTests();
        store.InsertRun(info.id, record);
        ++outcome.ran;
        if (record.log.status == runlog::RunStatus::kFailed) ++outcome.failed;
        if (DidNotRun(record)) ++outcome.did_not_run;
      },
      [&](const RunRecord& record) {
        store.InsertRun(info.id, record);
        ++outcome.interrupted_kept;
      },
      options.stop);
  progress->StudyFinished();
  outcome.stopped = !all_ran;
  return outcome;
}

}  // namespace

int CountFinishedPlannedRuns(const StudyPlan& plan, const std::vector<RunRecord>& runs) {
  std::set<std::pair<std::string, int>> finished;
  for (const RunRecord& r : runs) {
    if (IsFinishedRun(r) && !DidNotRun(r) && plan.FindRun(r.entry, r.run_index)) {
      finished.insert({r.entry, r.run_index});
    }
  }
  return static_cast<int>(finished.size());
}

StudyOutcome RunStudy(const StudyPlan& plan, const StudyRunOptions& options) {
  auto store = RunStore::Open(options.store_file);
  StudyOutcome outcome;
  std::optional<StudyInfo> info = store->FindStudy(plan.name);
  if (info && info->name != plan.name) info.reset();  // a numeric name matched another study's id
  nlohmann::json plan_json = PlanToJson(plan);
  if (info) {
    if (info->kind != "study") {
      throw UsageError("name", "'" + plan.name + "' in " + options.store_file.string() +
                                   " is an imported study; pick another --name");
    }
    StudyPlan stored = PlanFromJson(info->plan);
    nlohmann::json stored_fingerprint = PlanFingerprint(stored), wanted = PlanFingerprint(plan);
    if (stored_fingerprint != wanted) {
      throw UsageError("name", "a study named '" + plan.name + "' exists in " + options.store_file.string() +
                                   " with a different plan (differs in: " +
                                   DescribeDifferences(stored_fingerprint, wanted) +
                                   "); run it under another --name, or continue it with `evalsuite study resume " +
                                   plan.name + "`");
    }
    // Same study: continue it, in the run folders it started in.
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
  StudyInfo created;
  // Measured (or read) before the study exists: a bad ceilings file leaves nothing behind.
  nlohmann::json environment = StudyEnvironment(plan);
  outcome.ceilings = ObtainCeilings(plan, nlohmann::json::object(), options.measure_ceilings);
  if (outcome.ceilings) environment[kCeilingsKey] = *outcome.ceilings;
  created.id = store->CreateStudy(plan.name, "study", plan_json, environment);
  created.name = plan.name;
  created.kind = "study";
  created.environment = environment;
  return Execute(*store, created, plan, options, outcome);
}

StudyOutcome ResumeStudy(const std::optional<std::string>& name, const StudyRunOptions& options) {
  auto store = RunStore::Open(options.store_file, /*create_if_missing=*/false);
  std::optional<StudyInfo> info;
  if (name) {
    info = store->FindStudy(*name);
    if (!info) throw UsageError(*name, "no such study in " + options.store_file.string());
    if (info->kind != "study") throw UsageError(*name, "an imported study has nothing to resume");
  } else {
    std::vector<StudyInfo> unfinished;
    for (StudyInfo& s : store->ListStudies()) {
      if (s.kind != "study") continue;
      StudyPlan plan = PlanFromJson(s.plan);
      if (CountFinishedPlannedRuns(plan, store->LoadRuns(s.id)) < static_cast<int>(plan.schedule.size())) {
        unfinished.push_back(std::move(s));
      }
    }
    if (unfinished.empty()) throw UsageError("STUDY", "no unfinished study in " + options.store_file.string());
    if (unfinished.size() > 1) {
      std::string names;
      for (const auto& s : unfinished) names += (names.empty() ? "" : ", ") + s.name;
      throw UsageError("STUDY", "several unfinished studies (" + names + "): name the one to resume");
    }
    info = unfinished.front();
  }
  StudyPlan plan = PlanFromJson(info->plan);
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
