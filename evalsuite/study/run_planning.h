// `evalsuite study plan FILE --pilot STORE`: how many runs per entry a study needs, from pilot runs already in a
// store, before spending the machine time. Per entry of the plan (matched by name with the pilot's entries):
//  - stability: the runs that bring the CoV's upper bound within the rule's limit with the rule's assurance if the
//    true CoV is the pilot's (stats/stability.h), scaled up by the pilot's hit rate; the CoV of the basis the report
//    judges (stats/entry_verdict.h: TTA, or epochs to target under [stability] basis = "epochs");
//  - comparison, for each pair of the plan (compare, or [sequential]'s question; without pairs, each entry against
//    itself): the runs per entry that show a TTA ratio of `ratio` with `power` at `alpha`, simulated by
//    resampling the second (reference) entry's pilot runs with their censoring (stats/comparison_power.h), with the
//    simulation's standard error;
//  - cost: those runs times the pilot's mean wall time per run, in machine hours (and money with cost_per_hour).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "evalsuite/study/study_plan.h"
#include "reports/report_input.h"

namespace evalsuite::study {

struct RunPlanningOptions {
  double ratio = 0.90;  // the TTA ratio to detect: 0.90 = the faster entry takes 10% less time
  double power = 0.80;
  double alpha = 0.05;
  std::size_t simulations = 2000;
  int max_runs = 200;  // the largest number of runs per entry considered
};

// The plan's figures as JSON: {entries: [{entry, pilot_runs, pilot_reached, pilot_verdict, basis, stability_runs,
// stability_note, mean_wall_seconds}], comparisons: [{a, b, ratio, power, runs_per_entry, simulated_power, simulation_se, note}],
// runs_per_entry {entry: n}, machine_hours, cost}. UsageError when no entry of the plan is in the pilot.
nlohmann::json PlanRunsFromPilot(const StudyPlan& plan, const reports::StabilityReportInput& pilot,
                                 const RunPlanningOptions& options);

// Lines for the terminal.
std::string FormatRunPlanning(const nlohmann::json& planning);

}  // namespace evalsuite::study
