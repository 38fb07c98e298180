#include "reports/counted_runs.h"

#include "evalsuite/store/run_counting.h"

namespace evalsuite::reports {

// Which runs count is store/run_counting.h's rule, the same `study show`, resume and the holdout ask: an interrupted
// study run (resume reruns it) and a run that did not run are shown but left out; an imported run without its end
// counts (MLPerf's rule).
bool CountsInStatistics(const RunInput& run, const std::string& source) {
  return store::CountsInStatistics(run.status, store::IsResumableSource(source));
}

stats::RunCurve ToRunCurve(const RunInput& run) { return store::RunCurveOf(run.points, run.time_spent); }

bool HasEpochs(const RunInput& run) { return !run.points.empty() && run.epochs.size() == run.points.size(); }

// The run's curve against epochs instead of training time: AnalyzeStability on these gives epochs to target.
stats::RunCurve ToEpochCurve(const RunInput& run) {
  stats::RunCurve curve;
  for (std::size_t i = 0; i < run.points.size(); ++i) curve.points.push_back({run.epochs[i], run.points[i].metric});
  curve.time_spent = run.epochs.back();
  return curve;
}

}  // namespace evalsuite::reports
