#include "analysis/compared_runs.h"

#include <algorithm>

#include "analysis/run_counting.h"

namespace evalsuite::analysis {

stats::SurvivalObservation ObserveRun(const stats::RunCurve& curve, double threshold, std::size_t consecutive) {
  if (auto t = stats::TimeToTarget(curve.points, threshold, consecutive)) return {*t, true};
  return {curve.time_spent, false};
}

stats::ComparedRuns LeadingComparedRuns(const Entry& entry, std::size_t consecutive, std::size_t n) {
  stats::ComparedRuns runs;
  runs.name = entry.name;
  bool epochs_known = true;
  const std::vector<const Run*> leading = LeadingCountedRuns(entry);
  for (std::size_t i = 0; i < n && i < leading.size(); ++i) {
    runs.tta.push_back(ObserveRun(TimeCurveOf(*leading[i]), entry.threshold, consecutive));
    epochs_known = epochs_known && HasEpochs(*leading[i]);
    if (epochs_known) runs.epochs.push_back(ObserveRun(EpochCurveOf(*leading[i]), entry.threshold, consecutive));
  }
  if (!epochs_known) runs.epochs.clear();
  return runs;
}

stats::ComparedRuns ComparedRunsOf(const Entry& entry, std::size_t consecutive) {
  stats::ComparedRuns runs;
  runs.name = entry.name;
  bool epochs_known = true;
  std::vector<const Run*> counted = CountedRuns(entry);
  std::stable_sort(counted.begin(), counted.end(), [](const Run* x, const Run* y) { return x->index < y->index; });
  for (const Run* run : counted) {
    runs.tta.push_back(ObserveRun(TimeCurveOf(*run), entry.threshold, consecutive));
    if (HasEpochs(*run) && epochs_known) {
      runs.epochs.push_back(ObserveRun(EpochCurveOf(*run), entry.threshold, consecutive));
    } else {
      epochs_known = false;
    }
  }
  if (!epochs_known) runs.epochs.clear();
  return runs;
}

}  // namespace evalsuite::analysis
