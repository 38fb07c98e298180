// What a stability report is built from: the entries and their runs (analysis/run.h), what the study asks of them
// (analysis/analysis_settings.h), filled by the study store (evalsuite report) or by import, so reports/ never depends
// on where runs came from. The built model is typed (reports/report_model.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"
#include "analysis/run.h"

namespace evalsuite::reports {

struct StabilityReportInput {
  std::string title = "evalsuite stability report";
  nlohmann::json environment = nlohmann::json::object();
  nlohmann::json plan = nlohmann::json::object();  // the effective, validated study plan, as shown in the report
  analysis::AnalysisSettings settings;             // the plan's rule, compare pairs and sequential question
  std::optional<double> cost_per_hour;             // the plan's price of the machine per hour (cost section)
  std::vector<analysis::Entry> entries;
  // Sections produced elsewhere and placed in the model as they are, e.g. "generalization" (an array of
  // evaluated image sets, see reports/generalization_section.h).
  nlohmann::json extra_sections = nlohmann::json::object();
};

}  // namespace evalsuite::reports
