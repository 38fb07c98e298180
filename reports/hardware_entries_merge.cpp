#include "reports/hardware_entries_merge.h"

#include <set>

namespace evalsuite::reports {

std::vector<std::string> MergeHardwareEntries(nlohmann::json& section, const nlohmann::json& from_store) {
  std::vector<std::string> replaced;
  if (!section.is_object() || !from_store.is_object() || !from_store.contains("entries") ||
      !from_store["entries"].is_array()) {
    return replaced;
  }
  std::set<std::string> in_store;
  for (const nlohmann::json& entry : from_store["entries"]) {
    if (entry.is_object() && entry.contains("entry") && entry["entry"].is_string()) {
      in_store.insert(entry["entry"].get<std::string>());
    }
  }
  nlohmann::json kept = nlohmann::json::array();
  if (section.contains("entries") && section["entries"].is_array()) {
    for (const nlohmann::json& entry : section["entries"]) {
      const bool named = entry.is_object() && entry.contains("entry") && entry["entry"].is_string();
      if (named && in_store.count(entry["entry"].get<std::string>()) != 0) {
        replaced.push_back(entry["entry"].get<std::string>());
        continue;
      }
      kept.push_back(entry);
    }
  }
  for (const nlohmann::json& entry : from_store["entries"]) kept.push_back(entry);
  section["entries"] = std::move(kept);
  return replaced;
}

}  // namespace evalsuite::reports
