#include "study/execution/scheduler.h"

#include <sched.h>
#include <signal.h>

#include <cstdlib>
#include <list>
#include <memory>

#include "common/error.h"
#include "study/execution/failure_cause.h"
#include "study/execution/run_execution.h"
#include "study/execution/run_folder_record.h"
#include "study/hardware/contention_sampler.h"
#include "study/hardware/gpu_sampler.h"

namespace evalsuite::study {
namespace {

struct Running {
  const PendingRun* pending = nullptr;
  const PlannedEntry* entry = nullptr;
  std::unique_ptr<ChildProcess> child;
  double started = 0;  // on SchedulerConfig::now
  bool timed_out = false;
  std::optional<long> oom_kills_at_start;  // the cgroup's OOM kill count when the run started
  std::optional<double> term_sent;
  LogProgress progress;
  std::vector<std::string> devices;  // its slot: taken from the free pools at start, given back at its end
  std::vector<int> cpus;
  std::unique_ptr<GpuSampler> gpu;  // its GPUs' memory and utilization while it runs
  int key = 0;                      // its position in the pending list (the contention monitor's key)
};

// Free device ids and CPUs of the plan's slots (study_plan.h: devices, devices_per_run, cpus_per_run).
struct Slots {
  std::vector<std::string> devices;
  std::vector<int> cpus;
  int devices_per_run = 0;  // 0: no device slots
  int cpus_per_run = 0;     // 0: no pinning

  bool Available() const {
    return static_cast<int>(devices.size()) >= devices_per_run && static_cast<int>(cpus.size()) >= cpus_per_run;
  }
  void Take(Running& r) {
    r.devices.assign(devices.begin(), devices.begin() + devices_per_run);
    devices.erase(devices.begin(), devices.begin() + devices_per_run);
    r.cpus.assign(cpus.begin(), cpus.begin() + cpus_per_run);
    cpus.erase(cpus.begin(), cpus.begin() + cpus_per_run);
  }
  void GiveBack(const Running& r) {
    devices.insert(devices.end(), r.devices.begin(), r.devices.end());
    cpus.insert(cpus.end(), r.cpus.begin(), r.cpus.end());
  }
};

Slots PlanSlots(const StudyPlan& plan) {
  Slots slots;
  if (!plan.devices.empty()) {
    slots.devices = plan.devices;
    slots.devices_per_run = plan.devices_per_run;
  }
  if (plan.cpus_per_run > 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) slots.cpus.push_back(cpu);
    }
    if (static_cast<int>(slots.cpus.size()) < plan.cpus_per_run) {
      throw UsageError("cpus_per_run", std::to_string(plan.cpus_per_run) + " CPUs per run, but this process may use " +
                                           std::to_string(slots.cpus.size()));
    }
    slots.cpus_per_run = plan.cpus_per_run;
  }
  return slots;
}

std::string JoinIds(const std::vector<std::string>& ids) {
  std::string text;
  for (const std::string& id : ids) text += (text.empty() ? "" : ",") + id;
  return text;
}

ChildSpec SlotSpec(ChildSpec spec, const Running& r) {
  if (!r.devices.empty()) {
    const std::string visible = JoinIds(r.devices);
    for (const char* variable : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"}) {
      spec.environment[variable] = visible;
    }
    // CUDA numbers GPUs fastest first unless told otherwise, nvidia-smi by PCI bus: in PCI order the run's device
    // ids name the GPUs nvidia-smi reports for it (gpu_sampler.h). A user's own choice stands.
    if (std::getenv("CUDA_DEVICE_ORDER") == nullptr) spec.environment["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID";
  }
  spec.cpu_affinity = r.cpus;
  return spec;
}

void RecordSlot(store::RunRecord& record, Running& r, ContentionMonitor& contention,
                const std::optional<ChildExit>& exit) {
  if (!r.devices.empty()) record.execution["devices"] = r.devices;
  if (!r.cpus.empty()) record.execution["cpus"] = r.cpus;
  if (r.gpu) record.execution["gpu"] = r.gpu->Finish();
  std::optional<double> own_cpu;
  if (exit && exit->usage) own_cpu = exit->usage->user_seconds + exit->usage->system_seconds;
  const std::optional<analysis::RunContention> measured = contention.RunFinished(r.key, own_cpu);
  record.execution["contention"] = measured ? analysis::ContentionToJson(*measured) : nlohmann::json(nullptr);
}

RunningRunView View(const Running& r, double now) {
  RunningRunView view;
  view.entry = r.pending->run.entry;
  view.index = r.pending->run.index;
  view.seed = r.pending->run.seed;
  view.epochs_budget = r.entry->epochs;
  view.epoch = r.progress.epoch;
  view.metric = r.progress.metric;
  view.seconds = now - r.started;
  return view;
}

// SIGTERM first so an entry can flush its log; SIGKILL once the grace period is over.
void Escalate(Running& r, double grace_seconds, double now) {
  if (!r.term_sent) {
    r.child->Signal(SIGTERM);
    r.term_sent = now;
  } else if (now - *r.term_sent >= grace_seconds) {
    r.child->Signal(SIGKILL);
  }
}

// Whether the kernel's OOM killer struck this cgroup while the run ran (with several runs at once, one of them).
bool OomKilledDuring(const Running& r) {
  const std::optional<long> now = OomKillCount();
  return r.oom_kills_at_start && now && *now > *r.oom_kills_at_start;
}

}  // namespace

bool RunScheduled(const StudyPlan& plan, const std::vector<PendingRun>& pending, const SchedulerConfig& config,
                  ProgressReporter& progress, const std::function<void(const store::RunRecord&)>& on_finished,
                  const std::function<void(const store::RunRecord&)>& on_interrupted, const std::atomic<bool>* stop) {
  const int jobs = std::max(1, config.jobs);
  Slots slots = PlanSlots(plan);
  std::list<Running> running;
  std::size_t next = 0;
  double last_progress = config.now() - 3600;
  ContentionMonitor contention;
  auto stopping = [&] { return (stop && stop->load()) || (config.answered && config.answered->load()); };
  // A child that ended: its record (with its slot and GPU figures) handed over, its slot given back.
  auto finish = [&](std::list<Running>::iterator it, const ChildExit& exit) {
    const ChildOutcome outcome{exit, it->timed_out, config.now() - it->started, OomKilledDuring(*it)};
    store::RunRecord record = CollectFinishedRun(plan, *it->entry, it->pending->run, it->pending->run_dir, outcome);
    RecordSlot(record, *it, contention, exit);
    slots.GiveBack(*it);
    on_finished(record);
    progress.RunFinished(record, outcome.wall_seconds);
    return running.erase(it);
  };

  while (next < pending.size() || !running.empty()) {
    if (stopping()) break;
    while (static_cast<int>(running.size()) < jobs && next < pending.size() && slots.Available()) {
      const PendingRun& p = pending[next++];
      const PlannedEntry* entry = plan.FindEntry(p.run.entry);
      if (!entry) throw Error(ErrorKind::kInternal, p.run.entry, "run of an entry the plan does not have");
      std::error_code ec;
      std::filesystem::create_directories(p.run_dir, ec);
      if (ec) throw IoError(p.run_dir.string(), "cannot create the run's folder: " + ec.message());
      try {
        WriteRunFolderRecord(p.run_dir, plan, *entry, p.run, config.study_identity);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::kIo) throw;
        // A full disk (or a folder gone read-only) before the run started: the run died of its environment, as it
        // would have once started; it is recorded so (never a failed training run), and resume runs it again.
        std::filesystem::remove(p.run_dir / (std::string(kRunRecordFile) + ".tmp"), ec);
        store::RunRecord record = CollectInterruptedRun(plan, *entry, p.run, p.run_dir, "");
        MarkProcessFailed(record, std::string("the run's record could not be written: ") + e.what(),
                          /*environment=*/true);
        on_finished(record);
        progress.RunFinished(record, 0);
        continue;
      }
      Running r;
      r.key = static_cast<int>(next - 1);
      r.pending = &p;
      r.entry = entry;
      r.started = config.now();
      r.oom_kills_at_start = OomKillCount();
      slots.Take(r);
      r.child = std::make_unique<ChildProcess>(
          SlotSpec(BuildChildSpec(plan, *entry, p.run, p.run_dir, config.evalsuite_binary), r));
      GpuSamplerOptions gpu;
      gpu.interval_seconds = plan.gpu_sample_seconds;
      gpu.devices = RunGpuDevices(r.devices);
      r.gpu = std::make_unique<GpuSampler>(gpu);
      r.gpu->Poll();
      contention.RunStarted(r.key, r.child->pid(), r.cpus);
      running.push_back(std::move(r));
      progress.RunStarted(View(running.back(), config.now()));
    }

    contention.Poll();
    for (auto it = running.begin(); it != running.end();) {
      std::optional<ChildExit> exit = it->child->Poll();
      if (!exit) {
        it->gpu->Poll();
        const double now = config.now();
        if (it->entry->timeout_seconds > 0 && now - it->started > it->entry->timeout_seconds) {
          it->timed_out = true;
          Escalate(*it, config.kill_grace_seconds, now);
        }
        ++it;
        continue;
      }
      it = finish(it, *exit);
    }

    if (const double now = config.now(); now - last_progress >= config.progress_seconds) {
      last_progress = now;
      std::vector<RunningRunView> views;
      for (auto& r : running) {
        r.progress = PeekRunProgress(*r.entry, r.pending->run_dir);
        views.push_back(View(r, now));
      }
      if (!running.empty()) progress.Update(views);
    }
    config.sleep(config.poll_seconds);
  }

  if (!stopping() && running.empty()) return true;
  // Stopped: a child that ended on its own just now is a finished run; end every other one, then hand over
  // what each had written as an incomplete attempt.
  for (auto it = running.begin(); it != running.end();) {
    if (std::optional<ChildExit> exit = it->child->Poll()) {
      it = finish(it, *exit);
    } else {
      ++it;
    }
  }
  for (auto& r : running) Escalate(r, config.kill_grace_seconds, config.now());
  for (auto& r : running) {
    const double waited = config.now();
    while (!r.child->Poll()) {
      if (config.now() - waited >= config.kill_grace_seconds) r.child->Signal(SIGKILL);
      config.sleep(0.02);
    }
    store::RunRecord record = CollectInterruptedRun(plan, *r.entry, r.pending->run, r.pending->run_dir,
                                                    "interrupted: the study was stopped before this run ended");
    RecordSlot(record, r, contention, std::nullopt);
    on_interrupted(record);
  }
  return false;
}

}  // namespace evalsuite::study
