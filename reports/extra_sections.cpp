#include "reports/extra_sections.h"

#include "reports/generalization_section.h"
#include "reports/hardware_section.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

std::string KindOf(const json& value) {
  switch (value.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return value.empty() ? "an empty array" : "an array whose first element is " + KindOf(value.front());
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

std::string ImageSetProblem(const json& image_set, const std::string& where) {
  if (!image_set.is_object()) return where + " is " + KindOf(image_set) + ", not an image set object";
  if (!image_set.contains("image_set") || !image_set["image_set"].is_string()) {
    return where + " has no \"image_set\" name";
  }
  if (!image_set.contains("models") || !image_set["models"].is_array()) return where + " has no \"models\" array";
  for (std::size_t i = 0; i < image_set["models"].size(); ++i) {
    const json& model = image_set["models"][i];
    if (!model.is_object() || !model.contains("name") || !model["name"].is_string()) {
      return where + ".models[" + std::to_string(i) + "] is not a model object with a \"name\"";
    }
  }
  return "";
}

std::string GeneralizationProblem(const json& section) {
  const std::string expected =
      " (expected an array of image sets, each {\"image_set\", \"models\": [...]}, as `evalsuite holdout eval "
      "--json` writes)";
  if (section.is_object()) {
    const std::string problem = ImageSetProblem(section, "the section");
    return problem.empty() ? "" : problem + expected;
  }
  if (!section.is_array() || section.empty()) return "is " + KindOf(section) + expected;
  for (std::size_t i = 0; i < section.size(); ++i) {
    const std::string problem = ImageSetProblem(section[i], "[" + std::to_string(i) + "]");
    if (!problem.empty()) return problem + expected;
  }
  return "";
}

std::string HardwareProblem(const json& section) {
  const std::string expected =
      " (expected {\"machine\": {...}, \"entries\": [...]} as `evalsuite machine --json` writes)";
  if (!section.is_object()) return "is " + KindOf(section) + expected;
  if (section.contains("machine") && !section["machine"].is_object()) return "\"machine\" is not an object" + expected;
  if (section.contains("entries")) {
    const json& entries = section["entries"];
    if (!entries.is_array()) return "\"entries\" is not an array" + expected;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (!entries[i].is_object() || !entries[i].contains("entry") || !entries[i]["entry"].is_string()) {
        return "entries[" + std::to_string(i) + "] is not an entry object with an \"entry\" name" + expected;
      }
    }
  }
  if (!HasHardwareSection(section)) return "has neither a \"machine\" nor any \"entries\"" + expected;
  return "";
}

}  // namespace

const std::vector<std::string>& ExtraSectionNames() {
  static const std::vector<std::string> names = {kGeneralizationSectionKey, kHardwareSectionKey};
  return names;
}

bool IsExtraSectionName(const std::string& name) {
  for (const std::string& known : ExtraSectionNames()) {
    if (known == name) return true;
  }
  return false;
}

std::string ExtraSectionProblem(const std::string& name, const json& section) {
  if (name == kGeneralizationSectionKey) return GeneralizationProblem(section);
  if (name == kHardwareSectionKey) return HardwareProblem(section);
  std::string known;
  for (const std::string& n : ExtraSectionNames()) known += (known.empty() ? "" : ", ") + n;
  return "unknown section '" + name + "' (known: " + known + ")";
}

json CombineGeneralizationSections(const json& first, const json& second) {
  json combined = json::array();
  for (const json* part : {&first, &second}) {
    if (part->is_array()) {
      for (const json& image_set : *part) combined.push_back(image_set);
    } else if (!part->is_null()) {
      combined.push_back(*part);
    }
  }
  return combined;
}

}  // namespace evalsuite::reports
