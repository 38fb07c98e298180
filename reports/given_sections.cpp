#include "reports/given_sections.h"

#include <utility>
#include <vector>

#include "common/error.h"
#include "reports/extra_sections.h"
#include "reports/hardware_ceilings.h"
#include "reports/hardware_section.h"

namespace evalsuite::reports {

void AddGeneralizationSection(StabilityReportInput& input, const nlohmann::json& section, const std::string& source) {
  std::vector<ImageSetModel> image_sets = ParseGeneralizationSection(section, source);  // throws before any change
  nlohmann::json& shown = input.extra_sections[kGeneralizationSectionKey];
  shown = shown.is_null() ? section : CombineGeneralizationSections(shown, section);
  for (ImageSetModel& image_set : image_sets) input.generalization.push_back(std::move(image_set));
}

void DecodeHardwareSection(StabilityReportInput& input) {
  if (input.hardware_decoded) {
    throw UsageError(kHardwareSectionKey, "the hardware section was decoded already; its rows would be rated twice");
  }
  input.hardware_decoded = true;
  // The study's own recorded ceilings are what MFU divides by (reports/hardware_ceilings.h).
  nlohmann::json shown = ApplyStudyCeilings(input.hardware_given, input.environment);
  if (shown.is_null()) return;
  if (HasHardwareSection(shown)) input.hardware = ParseHardwareSection(shown);  // reports/hardware_section.h
  input.extra_sections[kHardwareSectionKey] = std::move(shown);
}

}  // namespace evalsuite::reports
