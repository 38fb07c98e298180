#include "study/hardware/contention_sampler.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace evalsuite::study {
namespace {

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool Overlap(const std::vector<int>& a, const std::vector<int>& b) {
  for (int x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  }
  return false;
}

}  // namespace

std::map<int, CpuCounters> ParsePerCpuStat(const std::string& text) {
  std::map<int, CpuCounters> cpus;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() < 4 || line.rfind("cpu", 0) != 0 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line.substr(3));
    int id = 0;
    if (!(fields >> id)) continue;
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    uint64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int read = 0;
    while (read < 8 && fields >> v[read]) ++read;
    if (read < 4) continue;
    CpuCounters c;
    c.steal = v[7];
    c.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    c.total = c.busy + v[3] + v[4];
    cpus[id] = c;
  }
  return cpus;
}

std::optional<ProcessGroupTicks> ParseProcessGroupTicks(const std::string& text) {
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  ProcessGroupTicks result;
  for (int index = 3; index <= 17; ++index) {
    if (!(fields >> field)) return std::nullopt;
    if (index != 5 && index < 14) continue;
    char* end = nullptr;
    const long long value = std::strtoll(field.c_str(), &end, 10);
    if (end == field.c_str() || *end != '\0' || value < 0) return std::nullopt;
    if (index == 5) {
      result.group = static_cast<pid_t>(value);
    } else {
      result.ticks += static_cast<uint64_t>(value);
    }
  }
  return result;
}

std::optional<uint64_t> ParsePressureSomeTotal(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const std::size_t at = line.find("total=");
    if (at == std::string::npos) return std::nullopt;
    char* end = nullptr;
    const char* start = line.c_str() + at + 6;
    const unsigned long long value = std::strtoull(start, &end, 10);
    if (end == start) return std::nullopt;
    return value;
  }
  return std::nullopt;
}

ContentionMonitor::ContentionMonitor(ContentionOptions options) : options_(std::move(options)) {
  const long ticks = sysconf(_SC_CLK_TCK);
  if (ticks > 0) ticks_per_second_ = static_cast<double>(ticks);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) all_cpus_.push_back(cpu);
    }
  }
  last_sample_ = Clock::now();
}

std::map<int, CpuCounters> ContentionMonitor::ReadCpus() const {
  return ParsePerCpuStat(ReadWhole(options_.proc_root + "/stat"));
}

std::optional<uint64_t> ContentionMonitor::ReadPressure() const {
  return ParsePressureSomeTotal(ReadWhole(options_.proc_root + "/pressure/cpu"));
}

std::map<int, uint64_t> ContentionMonitor::ReadRunTicks() const {
  // A run whose pid leads its process group (the child-process supervisor does) is the whole group: the command
  // and what it starts. Otherwise the process alone.
  std::map<pid_t, int> key_of_group;
  std::map<int, uint64_t> ticks;
  for (const auto& [key, run] : runs_) {
    const std::optional<ProcessGroupTicks> own =
        ParseProcessGroupTicks(ReadWhole(options_.proc_root + "/" + std::to_string(run.pid) + "/stat"));
    if (!own) continue;
    if (own->group == run.pid) {
      key_of_group[run.pid] = key;
      ticks[key] = 0;  // summed below, itself included
    } else {
      ticks[key] = own->ticks;
    }
  }
  if (key_of_group.empty()) return ticks;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(options_.proc_root, error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::optional<ProcessGroupTicks> process = ParseProcessGroupTicks(ReadWhole(entry.path().string() + "/stat"));
    if (!process) continue;  // gone since the listing
    if (const auto group = key_of_group.find(process->group); group != key_of_group.end()) {
      ticks[group->second] += process->ticks;
    }
  }
  return ticks;
}

void ContentionMonitor::RunStarted(int run_key, pid_t pid, const std::vector<int>& cpus) {
  Run run;
  run.pid = pid;
  run.cpus = cpus.empty() ? all_cpus_ : cpus;
  run.started = Clock::now();
  run.cpu_start = ReadCpus();
  run.pressure_start = ReadPressure();
  double load = 0;
  if (getloadavg(&load, 1) == 1) run.load_samples.push_back(load);
  runs_[run_key] = std::move(run);
}

void ContentionMonitor::Distribute(int from_key, double ticks) {
  if (ticks <= 0) return;
  const Run& from = runs_.at(from_key);
  for (auto& [key, run] : runs_) {
    if (key != from_key && Overlap(run.cpus, from.cpus)) run.study_ticks += ticks;
  }
}

void ContentionMonitor::Sample() {
  last_sample_ = Clock::now();
  double load = 0;
  const bool has_load = getloadavg(&load, 1) == 1;
  const std::map<int, uint64_t> ticks_now = ReadRunTicks();
  for (auto& [key, run] : runs_) {
    if (has_load) run.load_samples.push_back(load);
    const auto ticks = ticks_now.find(key);
    if (ticks != ticks_now.end() && ticks->second >= run.own_ticks_sampled) {
      const double delta = static_cast<double>(ticks->second - run.own_ticks_sampled);
      run.own_ticks_sampled = ticks->second;
      Distribute(key, delta);
    }
  }
}

void ContentionMonitor::Poll() {
  if (runs_.empty()) return;
  if (std::chrono::duration<double>(Clock::now() - last_sample_).count() >= options_.sample_seconds) Sample();
}

std::optional<analysis::RunContention> ContentionMonitor::RunFinished(int run_key,
                                                                      std::optional<double> own_cpu_seconds) {
  auto it = runs_.find(run_key);
  if (it == runs_.end()) return std::nullopt;
  const Run& run = it->second;
  const double seconds = std::chrono::duration<double>(Clock::now() - run.started).count();
  // Its ticks since the last sample go to the runs that shared its cores, then it leaves the monitor.
  if (own_cpu_seconds) {
    Distribute(run_key, *own_cpu_seconds * ticks_per_second_ - static_cast<double>(run.own_ticks_sampled));
  }
  const std::map<int, CpuCounters> now = ReadCpus();
  const std::optional<uint64_t> pressure = ReadPressure();
  double busy = 0, steal = 0, total = 0;
  int cores = 0;
  for (int cpu : run.cpus) {
    const auto before = run.cpu_start.find(cpu), after = now.find(cpu);
    if (before == run.cpu_start.end() || after == now.end() || after->second.total < before->second.total) continue;
    busy += static_cast<double>(after->second.busy - before->second.busy);
    steal += static_cast<double>(after->second.steal - before->second.steal);
    total += static_cast<double>(after->second.total - before->second.total);
    ++cores;
  }
  analysis::RunContention record;
  record.seconds = seconds;
  record.cpus = run.cpus;
  record.cores = cores;
  record.sample_seconds = options_.sample_seconds;
  const double elapsed_ticks = seconds * ticks_per_second_;
  if (total > 0 && elapsed_ticks > 0) {
    const double own = own_cpu_seconds ? *own_cpu_seconds * ticks_per_second_ : 0;
    record.steal_fraction = steal / total;
    record.other_busy_cores = std::max(0.0, busy - own - run.study_ticks) / elapsed_ticks;
    if (own_cpu_seconds) record.own_busy_cores = own / elapsed_ticks;
    record.study_busy_cores = run.study_ticks / elapsed_ticks;
  } else {
    // Counters that did not move are not missing: /proc/stat counts in clock ticks, and a run shorter than a tick
    // (a fake entry, an entry that fails at once) can end before any of its cores' counters advance.
    record.why = cores == 0 ? "no per-CPU counters in " + options_.proc_root + "/stat for the run's cores"
                            : "the run's cores' counters in " + options_.proc_root +
                                  "/stat did not advance while it ran (they count in ticks of 1/" +
                                  std::to_string(static_cast<long>(ticks_per_second_)) + " s): nothing to measure";
  }
  if (!run.load_samples.empty()) {
    double sum = 0, max = 0;
    for (double l : run.load_samples) {
      sum += l;
      max = std::max(max, l);
    }
    record.load_average_1m =
        analysis::LoadAverageSamples{sum / static_cast<double>(run.load_samples.size()), max, run.load_samples.size()};
  }
  if (run.pressure_start && pressure && *pressure >= *run.pressure_start && seconds > 0) {
    record.cpu_pressure_some = static_cast<double>(*pressure - *run.pressure_start) / (seconds * 1e6);
  }
  record.method =
      "other_busy_cores = (busy ticks of the run's CPUs in /proc/stat - the run's own CPU time (rusage) - the study's "
      "other runs' CPU time on those CPUs (their process groups' /proc/PID/stat)) / the run's wall time; "
      "steal_fraction = steal ticks / all ticks of those CPUs; cpu_pressure_some = PSI's 'some' stall time / the "
      "run's wall time";
  runs_.erase(it);
  return record;
}

}  // namespace evalsuite::study
