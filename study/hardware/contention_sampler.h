// What the machine did to each run while it ran, so that a report can tell the machine's noise from the training's:
//   - steal: the share of its cores' time a hypervisor gave to other guests (/proc/stat "steal");
//   - other processes' busy time on its cores: the cores' busy time (/proc/stat per CPU) minus the run's own CPU
//     time (its rusage) and minus what the study's other runs sharing those cores used (the CPU time of every
//     process in their process groups, from /proc/PID/stat: a run's pid is its supervisor, which leads the group
//     and uses no CPU itself, so reading that one process would count a concurrent sibling as the machine's);
//   - the load average (sampled), and PSI CPU pressure (/proc/pressure/cpu "some" total: the share of time some
//     runnable task waited for a CPU) where the kernel has it.
// A run's cores are its pinned CPUs (cpus_per_run), else every CPU the study may use. One monitor per scheduler,
// polled from its loop: no threads. The record goes into RunRecord::execution["contention"]
// (analysis::ContentionToJson).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run_contention.h"

namespace evalsuite::study {

// One CPU's counters from /proc/stat, in clock ticks.
struct CpuCounters {
  uint64_t busy = 0;  // user + nice + system + irq + softirq + steal
  uint64_t steal = 0;
  uint64_t total = 0;  // busy + idle + iowait
};
// "cpuN" lines by N; empty when the text has none.
std::map<int, CpuCounters> ParsePerCpuStat(const std::string& text);
// A process's group (field 5) and the CPU ticks it and its reaped children used (fields 14-17), from
// /proc/PID/stat: summed over a group's live members, that is the group's CPU time so far (a reaped child leaves
// the listing as its time enters its parent's cutime/cstime). nullopt when malformed.
struct ProcessGroupTicks {
  pid_t group = 0;
  uint64_t ticks = 0;
};
std::optional<ProcessGroupTicks> ParseProcessGroupTicks(const std::string& text);
// The "some" line's total (microseconds some task waited) of /proc/pressure/cpu; nullopt when absent.
std::optional<uint64_t> ParsePressureSomeTotal(const std::string& text);

struct ContentionOptions {
  std::string proc_root = "/proc";  // tests point it at fixture files
  double sample_seconds = 1.0;      // load average and the study's runs' CPU time, this often
};

class ContentionMonitor {
 public:
  explicit ContentionMonitor(ContentionOptions options = {});
  // `cpus`: the run's pinned CPUs, empty when unpinned (then every CPU of this process's affinity).
  void RunStarted(int run_key, pid_t pid, const std::vector<int>& cpus);
  // Takes a sample when sample_seconds have passed since the last one.
  void Poll();
  // The run's record (analysis/run_contention.h); `own_cpu_seconds`: user + system of its process (rusage), nullopt
  // when unknown. nullopt for a run it was not told of.
  std::optional<analysis::RunContention> RunFinished(int run_key, std::optional<double> own_cpu_seconds);

 private:
  using Clock = std::chrono::steady_clock;
  struct Run {
    pid_t pid = 0;
    std::vector<int> cpus;
    Clock::time_point started;
    std::map<int, CpuCounters> cpu_start;
    std::optional<uint64_t> pressure_start;
    uint64_t own_ticks_sampled = 0;  // its CPU ticks as last read
    double study_ticks = 0;          // other runs' ticks on overlapping cores, while it ran
    std::vector<double> load_samples;
  };
  void Sample();
  void Distribute(int from_key, double ticks);  // another run's ticks to each overlapping running run
  std::map<int, CpuCounters> ReadCpus() const;
  std::optional<uint64_t> ReadPressure() const;
  // CPU ticks so far of each running run's process group (of the process alone where it leads no group), by key.
  std::map<int, uint64_t> ReadRunTicks() const;

  ContentionOptions options_;
  std::vector<int> all_cpus_;
  std::map<int, Run> runs_;
  Clock::time_point last_sample_;
  double ticks_per_second_ = 100;
};

}  // namespace evalsuite::study
