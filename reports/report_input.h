// What a stability report is built from: the entries and their runs (analysis/run.h), what the study asks of them
// (analysis/analysis_settings.h), filled by the study store (evalsuite report) or by import, so reports/ never depends
// on where runs came from. The sections made elsewhere arrive decoded (reports/given_sections.h); the report builder
// reads their typed models and never parses their JSON. The built model is typed (reports/report_model.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"
#include "analysis/run.h"
#include "reports/generalization_section.h"
#include "reports/hardware_model.h"

namespace evalsuite::reports {

struct StabilityReportInput {
  std::string title = "evalsuite stability report";
  nlohmann::json environment = nlohmann::json::object();
  nlohmann::json plan = nlohmann::json::object();  // the effective, validated study plan, as shown in the report
  analysis::AnalysisSettings settings;             // the plan's rule, compare pairs and sequential question
  std::optional<double> cost_per_hour;             // the plan's price of the machine per hour (cost section)
  std::vector<analysis::Entry> entries;
  // The hardware rows as given, before the study's ceilings are applied: the store's rows
  // (study/hardware/) joined to a `--section hardware=FILE`'s; null when none. DecodeHardwareSection
  // (reports/given_sections.h) turns it into `hardware` and the section report.json shows.
  nlohmann::json hardware_given;
  // Sections made elsewhere as report.json shows them, by name ("generalization": the image sets as given,
  // "hardware": the study's ceilings applied), each placed with its typed model below by reports/given_sections.h.
  nlohmann::json extra_sections = nlohmann::json::object();
  // The generalization image sets, decoded once where their files were read (AddGeneralizationSection).
  std::vector<ImageSetModel> generalization;
  // The hardware section with the study's ceilings applied, decoded once (DecodeHardwareSection); none when the
  // report has none to show.
  std::optional<HardwareSectionModel> hardware;
  bool hardware_decoded = false;  // DecodeHardwareSection ran: `hardware_given` is settled in `hardware`
};

}  // namespace evalsuite::reports
