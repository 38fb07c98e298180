// The sections a report takes from files made elsewhere (`evalsuite report --section NAME=FILE`): their names and
// the shape each must have. Checked before the report is built, so that a misspelled name or a file of another kind
// is refused with what was expected instead of being copied into report.json and drawn nowhere.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace evalsuite::reports {

// generalization (`holdout eval --json`, generalization_section.h), hardware (`machine --json`, hardware_section.h).
const std::vector<std::string>& ExtraSectionNames();
bool IsExtraSectionName(const std::string& name);

// "" when `section` has the shape its section needs; otherwise what is wrong ("must be an array of image sets, each
// an object with \"image_set\" and \"models\" as `evalsuite holdout eval --json` writes; got an array of numbers").
// An unknown name: "unknown section 'bogus' (known: generalization, hardware)".
std::string ExtraSectionProblem(const std::string& name, const nlohmann::json& section);

// Two generalization sections (each an array of image sets, or a lone image-set object) as one array: the first's
// image sets, then the second's, none dropped.
nlohmann::json CombineGeneralizationSections(const nlohmann::json& first, const nlohmann::json& second);

}  // namespace evalsuite::reports
