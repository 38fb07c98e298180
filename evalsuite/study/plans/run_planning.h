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
#include <nlohmann/json.hpp>
#include <string>

#include "evalsuite/study/plans/study_plan.h"
#include "reports/report_input.h"

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

// The plan's figures as JSON: {ratio, power, assurance, alpha, entries: [{entry, pilot_runs, pilot_reached,
// pilot_verdict, basis, stability_runs, stability_note, mean_wall_seconds, wall_sources}], comparisons: [{a, b,
// pilot_runs, runs_per_entry (null: withheld), simulated_power, simulation_se, spread_widening, note,
// pilot_runs_needed}], runs_per_entry {entry: n}, runs_per_entry_for {entry: {stability: n|null, comparison:
// n|null}} (what each question asks; runs_per_entry is the larger), machine_hours, cost}. UsageError when no entry of
// the plan has counted runs in the pilot, or for an option out of range (--alpha as compare checks it).
nlohmann::json PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                                 const RunPlanningOptions& options);

// Lines for the terminal.
std::string FormatRunPlanning(const nlohmann::json& planning);

}  // namespace evalsuite::study
