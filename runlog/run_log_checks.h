// The rules every run log passes once read, whatever its format (JSON Lines, DAWNBench, regex, MLPerf): an
// evaluation with a negative or non-finite time, epoch or metric, a time or epoch that goes backwards, or a metric
// outside the scale its format declares is skipped with a warning "file:line: why". A TTA derived from what is left
// is therefore never negative, never NaN, and never read off a value the metric can't take.
#pragma once

#include <optional>
#include <string>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

// The values a metric can take, in the units the run log stores (both ends included).
struct MetricScale {
  double low = 0;
  double high = 1;
  std::string name = "a fraction in [0, 1]";  // for warnings: "not a fraction in [0, 1]"
};

// An accuracy stored as a fraction: [0, 1].
MetricScale FractionScale();

// Checks `log.points` in order against the rules above and against `scale` (nullopt: any finite value), skipping
// what breaks them with a warning in log.warnings. `source` names the file in warnings; a point's line
// (EvalPoint::line) is added when known. Also warns when the end record contradicts the evaluations that are left
// (status reached, but no evaluation at or above the header's "threshold", or not_reached although one is).
// `check_order` false leaves times and epochs going backwards alone (MLPerf: the official logs evaluate some
// checkpoints out of time order, stable diffusion's after training, and the curve keeps them as logged).
void CheckRunLog(RunLog& log, const std::string& source, const std::optional<MetricScale>& scale,
                 bool check_order = true);

// The scale a JSON Lines header declares: "metric_range": [low, high] (either may be null: unbounded on that side);
// without one, a fraction in [0, 1]. A malformed declaration is a warning and the default applies.
std::optional<MetricScale> DeclaredMetricScale(const nlohmann::json& header, const std::string& where,
                                               std::vector<std::string>* warnings);

}  // namespace evalsuite::runlog
