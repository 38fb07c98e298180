#include "study/execution/slurm_executor.h"

#include <cmath>
#include <fstream>
#include <list>
#include <map>
#include <set>

#include "common/clock.h"
#include "common/error.h"
#include "common/json_access.h"
#include "common/json_fields.h"
#include "study/execution/failure_cause.h"
#include "study/execution/json_record_file.h"
#include "study/execution/run_execution.h"
#include "study/execution/slurm_task.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

struct TaskRef {
  std::string job_id;
  int task = 0;
};

struct Watched {
  PlannedRun run;
  const PlannedEntry* entry = nullptr;
  fs::path run_dir;
  TaskRef task;
  bool started = false;
  double since = 0;  // on the injected clock (SchedulerConfig::now)
};

std::string Normal(const fs::path& dir) { return dir.lexically_normal().string(); }

bool Exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// Fields of a task's records, read only when they have the type a task writes: records of another evalsuite version
// or a hand edit must not throw in the coordinator (it would stop with the other runs unrecorded).
bool FlagField(const nlohmann::json& record, const char* key) {
  const nlohmann::json& value = Field(record, key);
  return value.is_boolean() && value.get<bool>();
}
double SecondsField(const nlohmann::json& record, const char* key) {
  const double seconds = NumberOf(Field(record, key)).value_or(0);
  return std::isfinite(seconds) && seconds >= 0 ? seconds : 0;
}
// Written as a JSON integer (an exit status or a signal), within int's range.
std::optional<int> IntField(const nlohmann::json& record, const char* key) {
  const nlohmann::json& value = Field(record, key);
  return value.is_number_integer() ? IntegerAs<int>(value) : std::nullopt;
}
std::string TextField(const nlohmann::json& record, const char* key) {
  const nlohmann::json& value = Field(record, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

// What the task's own records say about where it ran (the start record is written before the run starts).
nlohmann::json SlurmFacts(const fs::path& run_dir) {
  std::optional<nlohmann::json> start = ReadJsonFile(run_dir / kTaskStartFile);
  if (start && start->contains("slurm") && (*start)["slurm"].is_object()) return (*start)["slurm"];
  return nlohmann::json::object();
}

std::string QuoteForShell(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

constexpr double kNapSeconds = 0.02;

class Coordinator {
 public:
  Coordinator(RunRecorder& recorder, const StudyPlan& plan, const StudyRunOptions& options, ProgressReporter& progress,
              StudyOutcome& outcome)
      : recorder_(recorder),
        plan_(plan),
        options_(options),
        progress_(progress),
        outcome_(outcome),
        client_(SlurmDir(plan) / "commands"),
        now_(options.scheduler.now),
        sleep_(options.scheduler.sleep) {}

  bool Run() {
    std::vector<ArrayManifest> manifests = ReadManifests(plan_);
    next_sequence_ = static_cast<int>(manifests.size()) + 1;
    std::map<std::string, TaskRef> owner;  // run folder -> the latest array task that runs it
    std::vector<std::string> jobs;
    for (const ArrayManifest& m : manifests) {
      if (m.job_id.empty()) continue;  // sbatch never answered: nothing was submitted
      jobs.push_back(m.job_id);
      for (std::size_t i = 0; i < m.tasks.size(); ++i)
        owner[Normal(m.tasks[i].run_dir)] = {m.job_id, static_cast<int>(i)};
    }
    std::map<std::string, SlurmTaskState> live = client_.Queue(jobs);

    std::vector<ArrayTask> missing;
    for (const PlannedRun& run : plan_.schedule) {
      if (recorder_.IsDone(run)) continue;
      const PlannedEntry& entry = *plan_.FindEntry(run.entry);
      const fs::path dir = RunDirFor(plan_, run.entry, run.index);
      auto own = owner.find(Normal(dir));
      if (own != owner.end() && live.count(ArrayTaskName(own->second.job_id, own->second.task))) {
        watched_.push_back({run, &entry, dir, own->second, false, now_()});
        continue;
      }
      const bool done = recorder_.ResumeRun(run, [&](const fs::path& folder) {
        std::optional<TaskRef> task;
        auto it = owner.find(Normal(folder));
        if (it != owner.end()) task = it->second;
        return ConcludeEnded(entry, run, folder, task);
      });
      if (!done) missing.push_back({run, dir});
    }

    progress_.StudyStarted(plan_.name, static_cast<int>(plan_.schedule.size()),
                           outcome_.finished_before + outcome_.ingested_on_resume,
                           plan_.slurm.max_concurrent > 0 ? plan_.slurm.max_concurrent
                                                          : static_cast<int>(missing.size() + watched_.size()),
                           plan_.threads);
    if (!missing.empty() && !Stopping()) Submit(missing);
    return Watch();
  }

 private:
  bool Stopping() const { return options_.stop && options_.stop->load(); }

  void Submit(const std::vector<ArrayTask>& tasks) {
    ArrayManifest manifest;
    manifest.sequence = next_sequence_++;
    manifest.plan = PlanToJson(plan_);
    manifest.study = options_.scheduler.study_identity;
    manifest.tasks = tasks;
    const fs::path manifest_file = ManifestPath(plan_, manifest.sequence);
    std::error_code ec;
    fs::create_directories(manifest_file.parent_path(), ec);
    if (ec) throw IoError(manifest_file.parent_path().string(), "cannot create: " + ec.message());
    WriteManifest(manifest_file, manifest);
    const fs::path script = fs::path(manifest_file).replace_extension(".sh");
    {
      std::ofstream out(script);
      out << "#!/bin/sh\n# evalsuite study '" << plan_.name << "': one run per array task (see "
          << manifest_file.filename().string() << ")\nexec " << QuoteForShell(options_.evalsuite_binary.string())
          << " study slurm-task " << QuoteForShell(manifest_file.string()) << "\n";
      if (!out) throw IoError(script.string(), "cannot write the batch script");
    }
    std::vector<std::string> args = SbatchResourceOptions(plan_.slurm, plan_.threads);
    std::string array = "--array=0-" + std::to_string(tasks.size() - 1);
    if (plan_.slurm.max_concurrent > 0) array += "%" + std::to_string(plan_.slurm.max_concurrent);
    args.push_back(array);
    args.push_back("--job-name=evalsuite-" + plan_.name);
    args.push_back("--output=" + (fs::path(manifest_file).replace_extension("").string() + "-%a.out"));
    args.push_back(script.string());
    try {
      manifest.job_id = client_.Submit(args);
    } catch (...) {
      // Nothing was submitted: no manifest may claim the runs' folders.
      fs::remove(manifest_file, ec);
      fs::remove(script, ec);
      --next_sequence_;
      throw;
    }
    WriteManifest(manifest_file, manifest);
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      watched_.push_back({tasks[i].run,
                          plan_.FindEntry(tasks[i].run.entry),
                          tasks[i].run_dir,
                          {manifest.job_id, static_cast<int>(i)},
                          false,
                          now_()});
    }
  }

  // Records the earlier tries a requeued task moved aside, as incomplete attempts (never counted as runs).
  void RecordRequeuedTries(const PlannedEntry& entry, const PlannedRun& run, const fs::path& run_dir) {
    recorder_.RecordAsideTries(run_dir,
                               [&](const fs::path& aside) { return ConcludeEnded(entry, run, aside, std::nullopt); });
  }

  // A run folder no live task is writing to and the store does not know.
  store::RunRecord ConcludeEnded(const PlannedEntry& entry, const PlannedRun& run, const fs::path& dir,
                                 const std::optional<TaskRef>& task) {
    if (Exists(dir / kTaskEndFile)) return ConcludeTaskWithEnd(plan_, entry, run, dir);
    if (task) return ConcludeTaskWithoutEnd(plan_, entry, run, dir, client_.FinalState(task->job_id, task->task));
    if (Exists(dir / kTaskStartFile)) {
      // A try a requeued task moved aside (slurm_task.h) before it started the run again.
      store::RunRecord record = CollectInterruptedRun(
          plan_, entry, run, dir, "requeued by Slurm: this try was cut short and the task started again");
      record.execution = {{"executor", kSlurmExecutor}, {"slurm", SlurmFacts(dir)}};
      return record;
    }
    // A folder of a local run of this study (it ran with executor = "local" before).
    if (std::optional<store::RunRecord> complete = CollectCompletedOrphan(plan_, entry, run, dir)) return *complete;
    return CollectInterruptedRun(plan_, entry, run, dir, "interrupted: the study process ended before this run did");
  }

  void Record(const store::RunRecord& record) {
    recorder_.Record(record);
    if (store::IsFinishedRun(record)) progress_.RunFinished(record, record.log.wall_seconds);
  }

  RunningRunView View(const Watched& w) const {
    RunningRunView view;
    view.entry = w.run.entry;
    view.index = w.run.index;
    view.seed = w.run.seed;
    view.epochs_budget = w.entry->epochs;
    LogProgress seen = PeekRunProgress(*w.entry, w.run_dir);
    view.epoch = seen.epoch;
    view.metric = seen.metric;
    view.seconds = now_() - w.since;
    return view;
  }

  bool Watch() {
    while (!watched_.empty()) {
      // Short naps until the next poll, so that a stop is seen within one nap.
      const double wake = now_() + plan_.slurm.poll_seconds;
      while (now_() < wake && !Stopping()) sleep_(kNapSeconds);
      if (Stopping()) return false;
      std::vector<std::string> jobs;
      for (const Watched& w : watched_) {
        if (jobs.empty() || jobs.back() != w.task.job_id) jobs.push_back(w.task.job_id);
      }
      std::map<std::string, SlurmTaskState> live = client_.Queue(jobs);
      std::vector<RunningRunView> views;
      std::vector<ArrayTask> resubmit;
      for (auto it = watched_.begin(); it != watched_.end();) {
        auto state = live.find(ArrayTaskName(it->task.job_id, it->task.task));
        const bool in_queue = state != live.end();
        if (Exists(it->run_dir / kTaskEndFile)) {
          // The end record is the task's last act: the run has ended even if the task is still leaving the queue.
          RecordRequeuedTries(*it->entry, it->run, it->run_dir);
          Record(ConcludeTaskWithEnd(plan_, *it->entry, it->run, it->run_dir));
          it = watched_.erase(it);
          continue;
        }
        if (!in_queue) {
          bool again = true;
          if (!Exists(it->run_dir)) {
            // Never started (cancelled while pending, or its wrapper failed before the run): nothing to record.
            ++outcome_.not_started;
          } else {
            RecordRequeuedTries(*it->entry, it->run, it->run_dir);
            store::RunRecord record = ConcludeTaskWithoutEnd(plan_, *it->entry, it->run, it->run_dir,
                                                             client_.FinalState(it->task.job_id, it->task.task));
            again = !store::IsFinishedRun(record) || store::DidNotRun(record);
            Record(record);
          }
          // Cancelled, preempted, its node lost, never started: submitted once more by this invocation (a second
          // loss waits for `study resume`, so a task that cannot start does not loop).
          if (again && resubmitted_.insert({it->run.entry, it->run.index}).second) {
            // The run starts again in its own folder; the cut try, recorded above, moves aside.
            if (Exists(it->run_dir)) recorder_.MoveAside(it->run_dir);
            resubmit.push_back({it->run, it->run_dir});
          }
          it = watched_.erase(it);
          continue;
        }
        if (state->second.state == "RUNNING" && Exists(it->run_dir / kTaskStartFile)) {
          if (!it->started) {
            it->started = true;
            it->since = now_();
            progress_.RunStarted(View(*it));
          }
          views.push_back(View(*it));
        }
        ++it;
      }
      if (!views.empty()) progress_.Update(views);
      if (!resubmit.empty() && !Stopping()) Submit(resubmit);
    }
    return true;
  }

  RunRecorder& recorder_;
  const StudyPlan& plan_;
  const StudyRunOptions& options_;
  ProgressReporter& progress_;
  StudyOutcome& outcome_;
  SlurmClient client_;
  SteadyClock now_;
  Sleeper sleep_;
  std::list<Watched> watched_;
  std::set<std::pair<std::string, int>> resubmitted_;
  int next_sequence_ = 1;
};

// What the node did to the run while it ran, as the task sampled it (slurm_task.h): stored as a local run's is.
void AddSlurmTaskContention(store::RunRecord& record, const fs::path& run_dir) {
  if (std::optional<nlohmann::json> contention = ReadJsonFile(run_dir / kTaskContentionFile)) {
    record.execution["contention"] = *contention;
  }
}

}  // namespace

store::RunRecord ConcludeTaskWithEnd(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                     const fs::path& run_dir) {
  nlohmann::json end = ReadJsonFile(run_dir / kTaskEndFile).value_or(nlohmann::json::object());
  ChildOutcome outcome;
  if (std::optional<int> status = IntField(end, "exit_status")) outcome.exit.exit_status = *status;
  if (std::optional<int> signal = IntField(end, "signal")) outcome.exit.signal = *signal;
  outcome.timed_out = FlagField(end, "timed_out");
  outcome.oom_killed = FlagField(end, "oom_killed");
  outcome.wall_seconds = SecondsField(end, "wall_seconds");
  store::RunRecord record = CollectFinishedRun(plan, entry, run, run_dir, outcome);
  nlohmann::json slurm = end.contains("slurm") && end["slurm"].is_object() ? end["slurm"] : SlurmFacts(run_dir);
  slurm["state"] = "COMPLETED";
  record.execution = {{"executor", kSlurmExecutor}, {"slurm", slurm}};
  if (end.contains("usage") && end["usage"].is_object()) record.execution["usage"] = end["usage"];
  if (end.contains("gpu") && end["gpu"].is_object()) record.execution["gpu"] = end["gpu"];
  AddSlurmTaskContention(record, run_dir);
  return record;
}

store::RunRecord ConcludeTaskWithoutEnd(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                        const fs::path& run_dir, const std::optional<SlurmTaskState>& state) {
  nlohmann::json slurm = SlurmFacts(run_dir);
  const std::string node = state && !state->node.empty() ? state->node : TextField(slurm, "node");
  const std::string on_node = node.empty() ? "" : " on " + node;
  std::string why;
  if (!state) {
    why = "interrupted: the task ended without an end record and Slurm no longer knows it (its node" + on_node +
          " vanished?)";
  } else if (state->state == "CANCELLED") {
    why = "interrupted: cancelled in Slurm (scancel) before the run ended";
  } else if (state->state == "PREEMPTED") {
    why = "interrupted: preempted by Slurm before the run ended";
  } else if (state->state == "REQUEUED" || state->state == "REQUEUE_FED" || state->state == "REQUEUE_HOLD") {
    why = "interrupted: requeued by Slurm";
  }
  store::RunRecord record =
      CollectInterruptedRun(plan, entry, run, run_dir, why.empty() ? "ended without an end record" : why);
  slurm["state"] = state ? state->state : "UNKNOWN";
  if (state) {
    slurm["reason"] = state->reason;
    slurm["exit_code"] = state->exit_code;
  }
  if (!node.empty()) slurm["node"] = node;
  record.execution = {{"executor", kSlurmExecutor}, {"slurm", slurm}};
  AddSlurmTaskContention(record, run_dir);
  if (!why.empty()) return record;  // incomplete: run again by resume

  const std::string& s = state->state;
  if (s == "TIMEOUT") {
    MarkProcessFailed(record,
                      "timed out: killed by Slurm at its time limit" +
                          (plan.slurm.time_limit.empty() ? std::string() : " (--time=" + plan.slurm.time_limit + ")"),
                      /*environment=*/false);
  } else if (s == "OUT_OF_MEMORY") {
    MarkProcessFailed(record, "out of memory: Slurm killed the task" + on_node + " (OUT_OF_MEMORY; raise [slurm] mem)",
                      /*environment=*/true);
  } else if (s == "NODE_FAIL" || s == "BOOT_FAIL") {
    MarkProcessFailed(record, "the node" + on_node + " failed under the run (Slurm " + s + ")", /*environment=*/true);
  } else {
    MarkProcessFailed(
        record,
        "the Slurm task ended (" + s + (state->exit_code.empty() ? "" : ", exit code " + state->exit_code) +
            (state->reason.empty() || state->reason == "None" ? "" : ", " + state->reason) + ") without an end record",
        /*environment=*/false);
  }
  return record;
}

bool ExecuteOnSlurm(RunRecorder& recorder, const StudyPlan& plan, const StudyRunOptions& options,
                    ProgressReporter& progress, StudyOutcome& outcome) {
  Coordinator coordinator(recorder, plan, options, progress, outcome);
  // Cancelled, preempted or never-started tasks leave runs missing: `study resume` submits them again.
  return coordinator.Run() && recorder.DonePlannedRuns() == static_cast<int>(plan.schedule.size());
}

std::vector<std::string> CancelStudyOnSlurm(const StudyPlan& plan) {
  SlurmClient client(SlurmDir(plan) / "commands");
  std::vector<std::string> jobs;
  for (const ArrayManifest& m : ReadManifests(plan)) {
    if (!m.job_id.empty()) jobs.push_back(m.job_id);
  }
  std::map<std::string, SlurmTaskState> live = client.Queue(jobs);
  std::vector<std::string> cancelled;
  for (const std::string& job : jobs) {
    for (const auto& [name, state] : live) {
      if (name.rfind(job + "_", 0) == 0) {
        client.Cancel(job);
        cancelled.push_back(job);
        break;
      }
    }
  }
  return cancelled;
}

}  // namespace evalsuite::study
