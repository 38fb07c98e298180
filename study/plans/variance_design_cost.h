// `study plan` for a study with a [variance] design: the design (sources, levels, repeats, runs per entry), what it
// cannot identify, and its cost before it runs: each entry's design runs times the mean wall time per run the
// planner measured in the pilot (run_planning.h's mean_wall_seconds), in machine hours and, at the plan's jobs,
// elapsed hours (and money with cost_per_hour, as the planner prices runs).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "study/plans/run_planning.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// {vary, levels, repeats, cells, runs_per_entry, description, warnings: [..], entries: [{entry, runs,
// mean_wall_seconds|null, machine_hours|null}], machine_hours, elapsed_hours_at_jobs, cost}; an entry without a
// measured wall time (no pilot runs) has null figures and leaves the totals out of reach (null). `planning`: what
// PlanRunsFromPilot gave. The plan must have a design.
nlohmann::json VarianceDesignCost(const StudyPlan& plan, const RunPlanning& planning);

// Lines for the terminal.
std::string FormatVarianceDesignCost(const nlohmann::json& cost);

}  // namespace evalsuite::study
