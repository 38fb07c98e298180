#include "generalization/holdout_selection_json.h"

namespace evalsuite::generalization {

using nlohmann::json;

json HoldoutSelectionFromJson(const json& rule) {
  json selection = {{"rule", rule.value("rule", "")}};
  if (rule.contains("sampling") && rule["sampling"].is_object()) {
    const json& s = rule["sampling"];
    selection["variant"] = s.value("variant", "");
    selection["seed"] = s.value("seed", json(nullptr));
    selection["per_class"] = s.value("per_class", json(nullptr));
    selection["min_votes"] = s.value("min_votes", json(nullptr));
    if (s.contains("reference")) selection["reference"] = s["reference"].value("kind", "");
  }
  return selection;
}

}  // namespace evalsuite::generalization
