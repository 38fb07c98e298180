#include "importer/framework_facts.h"

#include "common/json_access.h"

namespace evalsuite::importer {

nlohmann::json FrameworkFactsToJson(const FrameworkFacts& facts) {
  using nlohmann::json;
  json tta = json::array();
  for (const std::optional<double>& t : facts.tta) tta.push_back(JsonOrNull(t));
  json out = json::object();
  out["time_unit"] = facts.time_unit;
  out["metric_as_logged"] = facts.metric_as_logged;
  out["direction"] = facts.lower_is_better ? "lower is better" : "higher is better";
  out["threshold_as_logged"] = JsonOrNull(facts.threshold_as_logged);
  out["tta"] = std::move(tta);
  out["evaluations"] = facts.evaluations;
  out["files"] = facts.files;
  out["seeds"] = facts.seeds;
  out["time_rule"] = facts.time_rule;
  if (!facts.no_clock.empty()) out["no_clock"] = facts.no_clock;
  if (facts.steps_axis) out["target"] = {{"convergence_unit", "steps"}};
  return out;
}

}  // namespace evalsuite::importer
