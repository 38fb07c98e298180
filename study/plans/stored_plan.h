// A study's plan as the run store (or a Slurm array manifest) keeps it, decoded once by DecodeStoredPlan: the one
// function that reads a stored plan's JSON. Every reader of a stored study asks the typed StoredPlan, never the JSON.
// It is as tolerant as the readers it replaces: an import's record, or a plan this evalsuite cannot read strictly,
// still gives its analysis settings and what `study list` and `study show` print of it; a part that cannot be
// decoded throws its error (InputError naming the key) when it is asked for, not before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// How many runs a stored plan lists, and whether it asks a sequential question, read as `study list` always read
// them (never an error): an import's record lists none.
struct PlanSchedule {
  bool listed = false;      // the plan lists its runs (a study's plan does; an import's record does not)
  int planned_runs = 0;     // how many it lists
  bool sequential = false;  // [sequential] is a table
};

// The figures `study show` prints of a study's plan, each defaulting when absent.
struct PlanFigures {
  std::size_t entries = 0;
  int runs = 0;
  uint64_t seed = 0;
  int threads = 0;
  int jobs = 0;
  std::string out_dir = "?";
};

class StoredPlan {
 public:
  // The study's plan, strictly (throws InputError naming the key when this evalsuite did not write it; an
  // import's record is not a plan).
  const StudyPlan& Plan() const;
  // Its [stability] rule, compare pairs and [sequential] question; an import's: the defaults.
  const analysis::AnalysisSettings& Settings() const;
  const PlanSchedule& Schedule() const { return schedule_; }
  const PlanFigures& Figures() const;
  // Runs of `entry` in the plan's schedule; nullopt when the schedule is not a list.
  std::optional<int> PlannedRunsOf(const std::string& entry) const;
  // The price of the machine per hour (plan key cost_per_hour); none when the plan sets none or is an import's.
  std::optional<double> CostPerHour() const { return cost_per_hour_; }
  // The plan as it was recorded, for the report's "Effective plan" alone: shown verbatim, never read.
  const nlohmann::json& AsRecorded() const { return recorded_; }

 private:
  friend StoredPlan DecodeStoredPlan(const nlohmann::json& stored);
  nlohmann::json recorded_;
  std::optional<StudyPlan> plan_;
  std::exception_ptr plan_error_;
  analysis::AnalysisSettings settings_;
  std::optional<double> cost_per_hour_;
  std::exception_ptr settings_error_;
  PlanSchedule schedule_;
  PlanFigures figures_;
  std::exception_ptr figures_error_;
  std::optional<std::vector<std::string>> scheduled_entries_;  // each listed run's entry; absent when not a list
  std::exception_ptr scheduled_entries_error_;
};

// The one decode of a stored plan (PlanToJson's inverse, with the defaults for keys older versions did not write).
StoredPlan DecodeStoredPlan(const nlohmann::json& stored);

}  // namespace evalsuite::study
