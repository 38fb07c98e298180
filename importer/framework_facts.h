// What `evalsuite import` records of a group of framework logs (framework_import.h) beside its runs: the metric and
// direction as logged, the time basis, each run's TTA, evaluation count, file and seed. One struct, filled by the
// framework import and encoded once by FrameworkFactsToJson into the group's details (what --json and the store
// write); the import summary reads the struct, never its JSON.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::importer {

struct FrameworkFacts {
  std::string time_unit;         // "seconds", "epochs" or "steps"
  std::string metric_as_logged;  // the metric's name in the logs (not negated)
  bool lower_is_better = false;
  std::optional<double> threshold_as_logged;  // --threshold (or the rules' target) on the log's own scale
  // Per run, in the group's order:
  std::vector<std::optional<double>> tta;  // in time_unit; none where the target was not reached
  std::vector<std::size_t> evaluations;
  std::vector<std::string> files;
  std::vector<nlohmann::json> seeds;  // as the log gives it (null: none)
  std::string time_rule;              // how the time basis was chosen
  std::string no_clock;               // why the time is not seconds; empty where it is
  bool steps_axis = false;            // a point's "epoch" is the log's step (MLflow, TensorBoard)
};

// The group's details as the import has always written them, key for key.
nlohmann::json FrameworkFactsToJson(const FrameworkFacts& facts);

}  // namespace evalsuite::importer
