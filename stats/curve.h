// A run's learning curve and time to accuracy. TTA follows DAWNBench: the training time (evaluation excluded)
// at the first evaluation whose metric is at or above the threshold. TTA is always derived, never stored.
// A stricter crossing (`consecutive` = k > 1) asks that the metric stay at or above the threshold for k
// consecutive evaluations, so that one lucky evaluation within the metric's sampling noise does not count.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace evalsuite::stats {

struct CurvePoint {
  double time = 0;    // training time at this evaluation, in the run's time unit
  double metric = 0;  // e.g. validation top-1 accuracy
};

// k = 1 (the DAWNBench default): the time of the first evaluation at or above the threshold. k > 1: the time of
// the first evaluation that starts k consecutive evaluations (in time order) at or above it; a streak the run's
// end cuts short of k evaluations does not count (nothing confirms it). nullopt when the run never gets there.
std::optional<double> TimeToTarget(const std::vector<CurvePoint>& curve, double threshold, std::size_t consecutive = 1);

// The spacing of the evaluation grid where the run crossed: TTA minus the time of the evaluation before it (0 for
// the first evaluation). The true crossing lies somewhere in that gap. nullopt when the run never reached.
std::optional<double> CrossingResolution(const std::vector<CurvePoint>& curve, double threshold,
                                         std::size_t consecutive = 1);

}  // namespace evalsuite::stats
