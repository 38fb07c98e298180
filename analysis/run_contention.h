// What the machine did to one run while it ran (the contention monitor's record: study/hardware/
// contention_sampler.h), as one struct with one conversion to and from the JSON the run store keeps, and the one
// decision made on it: whether the run was busy. The monitor, the study's executors, `latency` and the report all
// use this struct; only the store's edge sees its JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::analysis {

// The 1-minute load average sampled while the run ran.
struct LoadAverageSamples {
  std::optional<double> mean;
  std::optional<double> max;
  std::optional<std::size_t> samples;
};

// A field the record does not have is absent (nullopt); figures that could not be measured are absent too and are
// written as null (steal_fraction, other_busy_cores, load_average_1m, cpu_pressure_some, and own_busy_cores beside a
// measured other_busy_cores), as the monitor has always written them.
struct RunContention {
  std::optional<double> seconds;           // the run's wall time as the monitor saw it
  std::optional<std::vector<int>> cpus;    // the run's cores (its pinned CPUs, else every CPU the study may use)
  std::optional<int> cores;                // of those, the ones with per-CPU counters
  std::optional<double> sample_seconds;    // how often the load average was sampled
  std::optional<double> steal_fraction;    // steal ticks / all ticks of its cores
  std::optional<double> other_busy_cores;  // other processes' busy cores, mean over the run
  std::optional<double> own_busy_cores;    // the run's own, where its CPU time is known
  std::optional<double> study_busy_cores;  // the study's other runs on its cores
  std::optional<std::string> why;          // why steal and other work were not measured
  std::optional<LoadAverageSamples> load_average_1m;
  std::optional<double> cpu_pressure_some;  // PSI's "some" stall time / the run's wall time; absent without PSI
  std::optional<std::string> method;        // how the figures were computed, in words
  std::optional<std::string> seen_from;     // where it was measured, when not by the local executor (a Slurm task)
};

// The record as the run store and report.json keep it (keys sorted, as every nlohmann object is).
nlohmann::json ContentionToJson(const RunContention& contention);
// The record back from that JSON (a stored run's execution["contention"]); a field of another type than the one
// written counts as absent, as it always has for the report's figures.
RunContention ContentionFromJson(const nlohmann::json& record);

// A run was busy when other processes kept at least half a core of its cores busy on average, or a hypervisor
// stole at least 5% of their time: either slows a run on a two-core machine by a tenth or more.
constexpr double kBusyOtherCores = 0.5;
constexpr double kBusyStealFraction = 0.05;
// Whether the record says the machine was busy during the run; false for what was not measured.
bool RunWasBusy(const RunContention& contention);

}  // namespace evalsuite::analysis
