#include "stats/curve.h"

#include <algorithm>

namespace evalsuite::stats {
namespace {

// The curve in time order (a log may list evaluations unsorted; stable for equal times), and the index of the
// crossing evaluation in it.
struct Crossing {
  std::vector<CurvePoint> sorted;
  std::optional<std::size_t> index;
};

Crossing FindCrossing(const std::vector<CurvePoint>& curve, double threshold, std::size_t consecutive) {
  Crossing crossing{curve, std::nullopt};
  std::stable_sort(crossing.sorted.begin(), crossing.sorted.end(),
                   [](const CurvePoint& a, const CurvePoint& b) { return a.time < b.time; });
  const std::size_t k = std::max<std::size_t>(consecutive, 1);
  std::size_t streak = 0;
  for (std::size_t i = 0; i < crossing.sorted.size(); ++i) {
    // A NaN metric never reaches the threshold (and breaks a streak).
    streak = crossing.sorted[i].metric >= threshold ? streak + 1 : 0;
    if (streak == k) {
      crossing.index = i + 1 - k;
      break;
    }
  }
  return crossing;
}

}  // namespace

std::optional<double> TimeToTarget(const std::vector<CurvePoint>& curve, double threshold, std::size_t consecutive) {
  const Crossing crossing = FindCrossing(curve, threshold, consecutive);
  if (!crossing.index) return std::nullopt;
  return crossing.sorted[*crossing.index].time;
}

std::optional<double> CrossingResolution(const std::vector<CurvePoint>& curve, double threshold,
                                         std::size_t consecutive) {
  const Crossing crossing = FindCrossing(curve, threshold, consecutive);
  if (!crossing.index) return std::nullopt;
  const std::size_t i = *crossing.index;
  return crossing.sorted[i].time - (i == 0 ? 0.0 : crossing.sorted[i - 1].time);
}

}  // namespace evalsuite::stats
