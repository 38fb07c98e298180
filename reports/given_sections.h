// The sections a report takes from elsewhere (`evalsuite report --section NAME=FILE`, and the hardware rows a store
// yields), decoded once where they are read into the typed models the report builder reads. report.json still shows
// each section as it was given (the hardware section with the study's ceilings applied).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "reports/report_input.h"

namespace evalsuite::reports {

// Decodes `section` (a generalization array, or one image set) and appends its image sets to the input's, and the
// JSON as given to extra_sections["generalization"] (CombineGeneralizationSections). Throws the InputError of
// ParseGeneralizationSection, naming `source` (the file) and the field, before the input is changed.
void AddGeneralizationSection(StabilityReportInput& input, const nlohmann::json& section, const std::string& source);

// Applies the study's recorded ceilings (reports/hardware_ceilings.h) to `input.hardware_given` once, places the
// result in extra_sections["hardware"] (when there is a section to show) and decodes it into `input.hardware`.
// Call it once all rows are given (the store's, then a --section file's); a second call is refused (an Error),
// since it would rate rows already rated.
void DecodeHardwareSection(StabilityReportInput& input);

}  // namespace evalsuite::reports
