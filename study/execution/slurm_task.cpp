#include "study/execution/slurm_task.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include "common/child_process.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/json_access.h"
#include "common/json_fields.h"
#include "study/execution/failure_cause.h"
#include "study/execution/json_record_file.h"
#include "study/execution/run_execution.h"
#include "study/execution/run_folder_record.h"
#include "study/hardware/contention_sampler.h"
#include "study/hardware/gpu_sampler.h"
#include "study/plans/stored_plan.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::atomic<int> g_signal_received{0};
extern "C" void RememberSignal(int signal) { g_signal_received.store(signal); }

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The run's contention record, seen from the node (the only place it can be measured), into the run folder: the
// task's cores are its CPU affinity as Slurm bound it, so the study's other tasks on those cores count as other
// processes here (the local executor can tell them apart; a task cannot see its siblings).
void WriteSlurmTaskContention(const fs::path& run_dir, ContentionMonitor& contention, const ChildExit& exit) {
  std::optional<double> own_cpu_seconds;
  if (exit.usage) own_cpu_seconds = exit.usage->user_seconds + exit.usage->system_seconds;
  std::optional<analysis::RunContention> record = contention.RunFinished(/*run_key=*/0, own_cpu_seconds);
  if (!record) return;
  record->seen_from = "the Slurm task on its node; the study's other tasks on the same cores count as other processes";
  WriteJsonFileAtomically(run_dir / kTaskContentionFile, analysis::ContentionToJson(*record));
}

}  // namespace

fs::path SlurmDir(const StudyPlan& plan) { return fs::path(plan.out_dir) / ".slurm"; }

fs::path ManifestPath(const StudyPlan& plan, int sequence) {
  char name[32];
  std::snprintf(name, sizeof(name), "array-%04d.json", sequence);
  return SlurmDir(plan) / name;
}

void WriteManifest(const fs::path& file, const ArrayManifest& manifest) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const ArrayTask& t : manifest.tasks) {
    nlohmann::json task = {
        {"entry", t.run.entry}, {"index", t.run.index}, {"seed", t.run.seed}, {"run_dir", t.run_dir.string()}};
    if (t.run.sources) {  // a [variance] design's seeds travel with the task, as the stored plan's schedule has them
      task["init_seed"] = t.run.sources->init;
      task["data_seed"] = t.run.sources->data_order;
      task["aug_seed"] = t.run.sources->augmentation;
    }
    tasks.push_back(std::move(task));
  }
  WriteJsonFileAtomically(file, {{"manifest_version", 1},
                                 {"sequence", manifest.sequence},
                                 {"job_id", manifest.job_id},
                                 {"plan", manifest.plan},
                                 {"study", manifest.study},
                                 {"tasks", tasks}});
}

ArrayManifest ReadManifest(const fs::path& file) {
  std::optional<nlohmann::json> json = ReadJsonFile(file);
  if (!json) throw InputError(file.string(), "not a readable array manifest");
  ArrayManifest manifest;
  // get<int>() of a float out of range would be undefined behaviour: integers are read through IntegerAs.
  auto integer = [&](const nlohmann::json& object, const char* key) {
    if (std::optional<int> value = IntegerAs<int>(object.at(key))) return *value;
    throw InputError(file.string() + ": " + key, "not an array manifest this evalsuite wrote: not an integer in range");
  };
  try {
    manifest.sequence = integer(*json, "sequence");
    manifest.job_id = json->at("job_id").get<std::string>();
    manifest.plan = json->at("plan");
    manifest.study = json->value("study", nlohmann::json());
    for (const auto& t : json->at("tasks")) {
      std::optional<uint64_t> seed = IntegerAs<uint64_t>(t.at("seed"));
      if (!seed) throw InputError(file.string() + ": seed", "not an array manifest this evalsuite wrote: not a seed");
      PlannedRun run{t.at("entry").get<std::string>(), integer(t, "index"), *seed, std::nullopt};
      if (t.contains("init_seed")) {
        auto source_seed = [&](const char* key) {
          std::optional<uint64_t> value = IntegerAs<uint64_t>(t.at(key));
          if (!value) throw InputError(file.string() + ": " + key, "not an array manifest this evalsuite wrote");
          return *value;
        };
        run.sources = SourceSeeds{source_seed("init_seed"), source_seed("data_seed"), source_seed("aug_seed")};
      }
      manifest.tasks.push_back({std::move(run), t.at("run_dir").get<std::string>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file.string(), std::string("not an array manifest this evalsuite wrote: ") + e.what());
  }
  return manifest;
}

std::vector<ArrayManifest> ReadManifests(const StudyPlan& plan) {
  std::vector<ArrayManifest> manifests;
  for (int sequence = 1;; ++sequence) {
    fs::path file = ManifestPath(plan, sequence);
    std::error_code ec;
    if (!fs::exists(file, ec)) break;
    manifests.push_back(ReadManifest(file));
  }
  return manifests;
}

nlohmann::json SlurmTaskFacts() {
  nlohmann::json facts = nlohmann::json::object();
  facts["job_id"] = Env("SLURM_JOB_ID");
  facts["array_job_id"] = Env("SLURM_ARRAY_JOB_ID");
  facts["array_task_id"] = Env("SLURM_ARRAY_TASK_ID");
  facts["node"] = Env("SLURMD_NODENAME");
  facts["restart_count"] = std::atoi(Env("SLURM_RESTART_COUNT").c_str());
  return facts;
}

int RunSlurmTask(const fs::path& manifest_file, int task_id, const fs::path& evalsuite_binary) {
  ArrayManifest manifest = ReadManifest(manifest_file);
  if (task_id < 0 || task_id >= static_cast<int>(manifest.tasks.size())) {
    throw InputError(manifest_file.string(), "has no task " + std::to_string(task_id));
  }
  const StudyPlan plan = DecodeStoredPlan(manifest.plan).Plan();
  const ArrayTask& task = manifest.tasks[static_cast<std::size_t>(task_id)];
  const PlannedEntry* entry = plan.FindEntry(task.run.entry);
  if (!entry) throw InputError(manifest_file.string(), "task " + std::to_string(task_id) + ": unknown entry");
  const fs::path& run_dir = task.run_dir;
  std::error_code ec;

  if (fs::exists(run_dir / kTaskEndFile, ec)) {
    std::cout << run_dir.string() << ": this run has ended already (requeued after its end): nothing to do\n";
    return 0;
  }
  if (fs::exists(run_dir, ec)) {
    // An earlier try of this task (killed, then requeued by Slurm) left its folder: keep it aside, start afresh.
    // (The store is the coordinator's: it records the try from where it now lies.)
    MoveAttemptAside(run_dir);
  }
  fs::create_directories(run_dir, ec);
  if (ec) throw IoError(run_dir.string(), "cannot create the run's folder: " + ec.message());
  WriteRunFolderRecord(run_dir, plan, *entry, task.run, manifest.study);

  nlohmann::json slurm = SlurmTaskFacts();
  WriteJsonFileAtomically(run_dir / kTaskStartFile,
                          {{"slurm", slurm}, {"host", HostName()}, {"started_at", UtcNowIso8601()}});

  // Slurm ends a task (scancel, time limit, preemption) with SIGTERM to every process of it, then SIGKILL: the run
  // gets it too; this process only stops waiting and writes no end record, so the coordinator asks Slurm why.
  struct sigaction action {};
  action.sa_handler = RememberSignal;
  sigemptyset(&action.sa_mask);
  struct sigaction previous[3];
  const int handled[3] = {SIGTERM, SIGINT, SIGHUP};
  for (int i = 0; i < 3; ++i) sigaction(handled[i], &action, &previous[i]);
  struct RestoreHandlers {
    const int* signals;
    struct sigaction* old;
    ~RestoreHandlers() {
      for (int i = 0; i < 3; ++i) sigaction(signals[i], &old[i], nullptr);
    }
  } restore{handled, previous};
  g_signal_received.store(0);

  const Clock::time_point started = Clock::now();
  const std::optional<long> oom_before = OomKillCount();
  ChildProcess child(BuildChildSpec(plan, *entry, task.run, run_dir, evalsuite_binary));
  // This node's GPUs the task was given (Slurm's CUDA_VISIBLE_DEVICES), all of them when it says none.
  GpuSamplerOptions gpu_options;
  gpu_options.interval_seconds = plan.gpu_sample_seconds;
  gpu_options.devices = RunGpuDevices({});
  GpuSampler gpu(gpu_options);
  ContentionMonitor contention;
  contention.RunStarted(/*run_key=*/0, child.pid(), /*cpus=*/{});
  bool timed_out = false;
  std::optional<Clock::time_point> term_sent;
  std::optional<ChildExit> exit;
  while (!(exit = child.Poll())) {
    gpu.Poll();
    contention.Poll();
    if (g_signal_received.load() != 0) {
      child.Signal(SIGTERM);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      child.Signal(SIGKILL);
      WriteSlurmTaskContention(run_dir, contention, child.Wait());
      return 128 + g_signal_received.load();
    }
    if (entry->timeout_seconds > 0 && SecondsSince(started) > entry->timeout_seconds) {
      timed_out = true;
      if (!term_sent) {
        child.Signal(SIGTERM);
        term_sent = Clock::now();
      } else if (SecondsSince(*term_sent) >= 2) {
        child.Signal(SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double wall = SecondsSince(started);
  WriteSlurmTaskContention(run_dir, contention, *exit);
  // Slurm signals every process of the task at once: the run may die of it before this process's handler ran.
  // A run killed by a signal this process did not send waits a moment for that signal; ended by Slurm, the task
  // writes no end record (the coordinator asks Slurm why).
  if (exit->signal && !timed_out) {
    for (int i = 0; i < 20 && g_signal_received.load() == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  if (g_signal_received.load() != 0) return 128 + g_signal_received.load();
  const std::optional<long> oom_after = OomKillCount();
  nlohmann::json end = {{"slurm", slurm},
                        {"exit_status", JsonOrNull(exit->exit_status)},
                        {"signal", JsonOrNull(exit->signal)},
                        {"timed_out", timed_out},
                        {"oom_killed", oom_before && oom_after && *oom_after > *oom_before},
                        {"wall_seconds", wall},
                        {"ended_at", UtcNowIso8601()}};
  if (exit->usage) end["usage"] = UsageToJson(wall, *exit->usage);
  end["gpu"] = gpu.Finish();
  WriteJsonFileAtomically(run_dir / kTaskEndFile, end);
  return 0;
}

}  // namespace evalsuite::study
