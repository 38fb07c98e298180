// The threshold notes an import keeps in an entry's `extra` (importer/: "threshold_shown", DAWNBench's
// "threshold_in_column_units", a framework log's "threshold_as_logged", "direction" and "metric_as_logged"),
// decoded once into named fields. An absent note is empty; a note of another shape is an InputError naming it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace evalsuite::store {

struct ThresholdAsLogged {
  std::optional<std::string> shown;             // the target as its source writes it ("eval_loss <= 0.925")
  std::optional<double> in_column_units;        // DAWNBench: the threshold on the results table's own column
  std::optional<double> as_logged;              // a framework log: the target on the metric's own scale
  bool lower_is_better = false;                 // "direction": "lower is better" (stored negated)
  std::optional<std::string> metric_as_logged;  // the metric's name in the log
};

// Anything but an object holds no notes. Non-string "threshold_shown" and non-number thresholds count as absent
// (older imports wrote null); "direction" and "metric_as_logged", when present, must be strings.
ThresholdAsLogged ThresholdAsLoggedFromJson(const nlohmann::json& extra);

}  // namespace evalsuite::store
