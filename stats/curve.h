// A run's learning curve and time to accuracy. TTA follows DAWNBench: the training time (evaluation excluded)
// at the first evaluation whose metric is at or above the threshold. TTA is always derived, never stored.
#pragma once

#include <optional>
#include <vector>

namespace evalsuite::stats {

struct CurvePoint {
  double time = 0;    // training time at this evaluation, in the run's time unit
  double metric = 0;  // e.g. validation top-1 accuracy
};

std::optional<double> TimeToTarget(const std::vector<CurvePoint>& curve, double threshold);

}  // namespace evalsuite::stats
