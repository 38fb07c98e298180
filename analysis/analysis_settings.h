// What a study asks of its runs, typed: the stability rule ([stability]), the pairs to compare (`compare`) and the
// sequential question ([sequential]). The study file's reader (study/plans/) fills them once; the study
// carries them to the report in one piece; a stored plan gives them back through AnalysisSettingsFromPlanJson, the
// one reader of those keys' stored form.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stats/stability.h"

namespace evalsuite::analysis {

// A study that stops as soon as its question is answered (study/plans/comparison_plan_keys.h):
//   [sequential]
//   min_runs = 3          # the first look: runs per entry
//   max_runs = 20         # the last look; the plan schedules this many runs per entry
//   alpha = 0.05          # the error rate kept over all looks
//   question = ["A", "B"] # is A faster than B (group-sequential log-rank), or "stability" (every entry judged)
struct SequentialSettings {
  int min_runs = 3;
  int max_runs = 20;
  double alpha = 0.05;
  bool stability = false;  // question = "stability"; else the pair a, b
  std::string a, b;
};

using EntryPair = std::pair<std::string, std::string>;

// A design that varies the sources of randomness one at a time (issue 55; analysis/variance_sources.h):
//   [variance]
//   vary = ["init", "data_order", "augmentation"]  # the seed sources drawn per level, crossed; the rest held
//   levels = 3                                      # seeds of each varied source
//   repeats = 2                                     # runs of each cell with identical seeds (nondeterminism)
struct VarianceSettings {
  std::vector<std::string> vary;
  int levels = 3;
  int repeats = 2;
};

struct AnalysisSettings {
  stats::StabilityRule rule;
  std::vector<EntryPair> compare;  // compare = [["A", "B"], ...]: is A faster than B?
  std::optional<SequentialSettings> sequential;
  std::optional<VarianceSettings> variance;  // none: the study is no variance design
};

// The pairs the report compares: the `compare` list, then the sequential question's pair if it is not listed.
std::vector<EntryPair> ComparedPairs(const AnalysisSettings& settings);

// A design's stored form, {"vary", "levels", "repeats"}, and back: an InputError naming plan.`key` ("plan.variance")
// when it is not one this evalsuite writes (an unknown source, levels < 2, repeats < 1).
nlohmann::json VarianceSettingsToJson(const VarianceSettings& design);
VarianceSettings VarianceSettingsFromJson(const nlohmann::json& stored, const std::string& key);

// The stored form: {"stability": {...}, "compare": [...], "sequential": {...} or null, and "variance": {vary, levels,
// repeats} where the study has that design}, merged into the stored plan.
nlohmann::json AnalysisSettingsToJson(const AnalysisSettings& settings);
// From a stored plan (or an import's plan, which has none of the keys): absent keys keep their defaults; a key of
// another shape is an InputError naming it ("plan.sequential.max_runs: ...").
AnalysisSettings AnalysisSettingsFromPlanJson(const nlohmann::json& plan);

}  // namespace evalsuite::analysis
