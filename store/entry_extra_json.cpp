#include "store/entry_extra_json.h"

#include "common/json_fields.h"

namespace evalsuite::store {
namespace {

std::optional<double> ExtraNumberIn(const nlohmann::json& extra, const char* key) {
  const auto it = extra.find(key);
  if (it == extra.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

ThresholdAsLogged ThresholdAsLoggedFromJson(const nlohmann::json& extra) {
  ThresholdAsLogged notes;
  if (!extra.is_object()) return notes;
  if (const auto it = extra.find("threshold_shown"); it != extra.end() && it->is_string()) {
    notes.shown = it->get<std::string>();
  }
  notes.in_column_units = ExtraNumberIn(extra, "threshold_in_column_units");
  notes.as_logged = ExtraNumberIn(extra, "threshold_as_logged");
  notes.lower_is_better = OptionalString(extra, "direction", "extra") == std::optional<std::string>("lower is better");
  notes.metric_as_logged = OptionalString(extra, "metric_as_logged", "extra");
  return notes;
}

}  // namespace evalsuite::store
