// How busy the machine was as a ceilings probe started: other work on the probe's cores lowers the measured peak,
// and every MFU divided by it comes out too high. The probe samples the CPU time other processes used in the half
// second before it (from /proc/stat, this process asleep meanwhile) and records it with the 1-minute load average;
// when other work probably shared its cores, a note that `evalsuite machine`, the study's start-up line and the
// report repeat. (The load average alone would also blame work that ended a minute ago: it decays slowly.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace evalsuite {

// The aggregate "cpu" line of /proc/stat, in clock ticks, and the number of "cpuN" lines.
struct CpuTimes {
  uint64_t busy = 0;  // user + nice + system + irq + softirq + steal (a hypervisor's steal takes cores too)
  uint64_t idle = 0;  // idle + iowait
  int cpus = 0;
};

std::optional<CpuTimes> ParseProcStat(const std::string& text);
// Cores' worth of busy time between two readings; nullopt when no time passed or the counters went back.
std::optional<double> BusyCoresBetween(const CpuTimes& before, const CpuTimes& after);
// Sleeps `seconds` between two readings of /proc/stat; nullopt where it cannot be read.
std::optional<double> BusyCoresOver(double seconds);

// The kernel's 1-minute load average (getloadavg), nullopt where it cannot be read.
std::optional<double> LoadAverage1m();

// Empty when a probe with `threads` threads on `cores` cores had them to itself, judged by the cores other work kept
// busy just before it: more than (cores - threads) + 0.5 says at least half a core of it ran where the probe would.
// Otherwise a sentence giving the figures and what they mean for MFU (`load_1m` < 0: not known, left out).
std::string ProbeUnderLoadNote(double busy_cores, double load_1m, int cores, int threads);

}  // namespace evalsuite
