// `evalsuite study plan FILE --pilot STORE`: how many runs per entry a study needs, from pilot runs already in a
// store, before spending the machine time. Per entry of the plan (matched by name with the pilot's entries):
//  - stability: the runs that bring the CoV's upper bound within the rule's limit with the rule's assurance if the
//    true CoV is the pilot's (stats/stability.h), scaled up by the pilot's hit rate; the CoV of the basis the report
//    judges (stats/entry_verdict.h: TTA, or epochs to target under [stability] basis = "epochs");
//  - comparison, for each pair of the plan (compare, or [sequential]'s question; without pairs, each entry against
//    itself): the runs per entry that show a TTA ratio of `ratio` with `power` at `alpha` whichever entry is the
//    faster, with `assurance` over the pilot's own uncertainty, simulated by resampling each entry's own pilot runs
//    with their censoring (stats/comparison_power.h); withheld, with the reason and the pilot it would take, where
//    the pilot cannot keep that promise;
//  - cost: those runs times the pilot's mean wall time per run as the store measured it (WallTimeOf), in machine
//    hours (and money with cost_per_hour).
// An entry of the plan with no runs in the pilot, or whose pilot runs all died before their first evaluation, is
// named with that reason in every figure it would enter.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/report_input.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

struct RunPlanningOptions {
  double ratio = 0.90;  // the TTA ratio to detect: 0.90 = the faster entry takes 10% less time
  double power = 0.80;
  double assurance = 0.80;  // the chance, over the pilot's sampling, that the planned runs give `power`
  double alpha = 0.05;
  std::size_t simulations = 2000;
  int max_runs = 200;  // the largest number of runs per entry considered
};

inline constexpr const char* kWallMeasured = "measured";  // the study's measure of the run's process
inline constexpr const char* kWallFromLog = "log";        // the run log's own wall_seconds
inline constexpr const char* kWallTraining = "training";  // neither: its training time
struct WallTime {
  double seconds = 0;
  const char* source = kWallMeasured;
};

// A run's wall time as the store records it: the study's measure of its process (execution usage) where there is
// one, else its log's end record, else its training time. A synthetic entry's log may claim 0.004 s for a run
// that took 2.3 s: the cost is what the machine spent.
WallTime WallTimeOf(const analysis::Run& run);

// One entry of the plan as its pilot answers.
struct EntryRunPlan {
  std::string entry;
  // Set when the pilot gives nothing to plan from (no runs, or all died before their first evaluation): its attempts,
  // with the reason in stability_note; the figures below are then absent.
  std::optional<std::size_t> pilot_attempts;
  std::size_t pilot_runs = 0, pilot_reached = 0;  // counted pilot runs, and those that reached the target
  std::string pilot_verdict;                      // the pilot's own verdict, judged on `basis`
  std::string basis;                              // stats/entry_verdict.h: "time" or "epochs"
  double mean_wall_seconds = 0;                   // per counted pilot run (WallTimeOf)
  std::map<std::string, int> wall_sources;        // WallTime::source: how many runs' wall time came from it
  std::optional<int> stability_runs;              // none: no number of runs would tell
  std::string stability_note;

  bool Planned() const { return !pilot_attempts; }
};

// One pair of the plan (or an entry against a copy of itself) and the runs per entry that answer it.
struct PairRunPlan {
  std::string a, b;
  std::optional<int> runs_per_entry;  // none: withheld, or nothing to plan from (`note` says which and why)
  std::string note;
  std::optional<std::pair<std::size_t, std::size_t>> pilot_runs;  // a's and b's counted pilot runs, where read
  std::optional<int> pilot_runs_needed;                           // withheld: the pilot that would do
  std::optional<double> simulated_power_at_max;                   // withheld: the power at max_runs
  double simulated_power = 0, simulation_se = 0;                  // planned
  double widening_a = 1, widening_b = 1;                          // planned: each spread's widening
};

// Which question asks for an entry's runs: its CoV bound, its comparisons (the larger is what it needs).
struct RunsAskedFor {
  std::optional<int> stability, comparison;
};

// The plan's figures. UsageError when no entry of the plan has counted runs in the pilot, or for an option out of
// range (--alpha as compare checks it).
struct RunPlanning {
  RunPlanningOptions options;
  std::vector<EntryRunPlan> entries;
  std::vector<PairRunPlan> comparisons;
  std::string pair_from;  // how the pairs were chosen where the plan names none; empty when it names them
  std::map<std::string, int> runs_per_entry;
  std::map<std::string, RunsAskedFor> runs_per_entry_for;
  double machine_hours = 0, elapsed_hours_at_jobs = 0;
  int jobs = 1;
  std::optional<double> cost;  // with the plan's cost_per_hour

  // What asks for `entry`'s runs; neither question where none does.
  RunsAskedFor AskedFor(const std::string& entry) const;
};

RunPlanning PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                              const RunPlanningOptions& options);

// `study plan --json`'s object: {ratio, power, assurance, alpha, simulations, entries: [{entry, pilot_runs,
// pilot_reached, pilot_verdict, basis, stability_runs, stability_note, mean_wall_seconds, wall_sources} or {entry,
// pilot_runs: 0, pilot_attempts, pilot_reached: 0, stability_runs: null, stability_note}], comparisons: [{a, b,
// runs_per_entry (null: withheld), note, pilot_runs {a: n, b: n}, pilot_runs_needed, simulated_power_at_max,
// simulated_power, simulation_se, spread_widening {a: w, b: w}}], pair_from, runs_per_entry {entry: n},
// runs_per_entry_for {entry: {stability: n|null, comparison: n|null}}, machine_hours, elapsed_hours_at_jobs, jobs,
// cost}; a figure a row does not have is left out.
nlohmann::json RunPlanningToJson(const RunPlanning& planning);

// Lines for the terminal.
std::string FormatRunPlanning(const RunPlanning& planning);

}  // namespace evalsuite::study
