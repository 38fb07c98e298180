// The precision a built-in run trained in and why (the trainer's record: entries/precision_choice.h
// PrecisionChoiceToJson, kept in the run log's header as "precision_choice"), decoded once at the store's edge. The
// report reads the precision and the reason from the struct; report.json shows the record as it was kept.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace evalsuite::analysis {

struct RunPrecision {
  std::string precision = "?";  // "fp32" or "bf16"; "?" where the record has none as text
  std::string reason;           // the choice's sentence with its figures; empty where the record has none
  nlohmann::json recorded = nlohmann::json::object();  // the record as kept, for report.json alone
};

// nullopt unless `record` is an object (other than built-in runs record none).
std::optional<RunPrecision> RunPrecisionFromJson(const nlohmann::json& record);

}  // namespace evalsuite::analysis
