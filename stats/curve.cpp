#include "stats/curve.h"

namespace evalsuite::stats {

// The earliest evaluation (by time) at or above the threshold, so an unsorted curve gives the same answer.
// A NaN metric never reaches the threshold.
std::optional<double> TimeToTarget(const std::vector<CurvePoint>& curve, double threshold) {
  std::optional<double> first;
  for (const CurvePoint& p : curve) {
    if (p.metric >= threshold && (!first || p.time < *first)) {
      first = p.time;
    }
  }
  return first;
}

}  // namespace evalsuite::stats
