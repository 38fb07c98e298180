#include "common/machine_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace evalsuite {

std::optional<CpuTimes> ParseProcStat(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::optional<CpuTimes> times;
  int cpus = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("cpu", 0) != 0) continue;
    if (line.size() > 3 && line[3] >= '0' && line[3] <= '9') {
      ++cpus;
      continue;
    }
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    std::istringstream fields(line.substr(3));
    uint64_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int read = 0;
    while (read < 8 && fields >> v[read]) ++read;
    if (read < 4) return std::nullopt;
    times = CpuTimes{v[0] + v[1] + v[2] + v[5] + v[6] + v[7], v[3] + v[4], 0};
  }
  if (!times || cpus == 0) return std::nullopt;
  times->cpus = cpus;
  return times;
}

std::optional<double> BusyCoresBetween(const CpuTimes& before, const CpuTimes& after) {
  if (after.busy < before.busy || after.idle < before.idle) return std::nullopt;
  const uint64_t busy = after.busy - before.busy, total = busy + (after.idle - before.idle);
  if (total == 0 || after.cpus <= 0) return std::nullopt;
  return static_cast<double>(busy) / static_cast<double>(total) * after.cpus;
}

namespace {

std::optional<CpuTimes> ReadProcStat() {
  std::ifstream in("/proc/stat");
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return ParseProcStat(text.str());
}

}  // namespace

std::optional<double> BusyCoresOver(double seconds) {
  const std::optional<CpuTimes> before = ReadProcStat();
  if (!before) return std::nullopt;
  std::this_thread::sleep_for(std::chrono::duration<double>(std::clamp(seconds, 0.0, 10.0)));
  const std::optional<CpuTimes> after = ReadProcStat();
  if (!after) return std::nullopt;
  return BusyCoresBetween(*before, *after);
}

std::optional<double> LoadAverage1m() {
  double load[1] = {0};
  if (getloadavg(load, 1) != 1 || !std::isfinite(load[0]) || load[0] < 0) return std::nullopt;
  return load[0];
}

std::string ProbeUnderLoadNote(double busy_cores, double load_1m, int cores, int threads) {
  cores = std::max(cores, 1);
  threads = std::clamp(threads, 1, cores);
  const double spare = cores - threads;
  if (!(busy_cores > spare + 0.5)) return "";
  return fmt::format(
      "other processes kept {:.2f} of {} cores busy just before the probe{} and it used {} thread{}: they probably "
      "shared its cores, so the measured peak may be low and every MFU against it high; measure on a quiet machine "
      "(evalsuite machine --json F, then machine_ceilings = \"F\")",
      busy_cores, cores, load_1m >= 0 ? fmt::format(" (1-minute load average {:.2f})", load_1m) : "", threads,
      threads == 1 ? "" : "s");
}

}  // namespace evalsuite
