#include "reports/counted_runs.h"

#include <algorithm>

namespace evalsuite::reports {

// An incomplete run was interrupted together with the study (resume reruns it under the same index), so it is
// shown but left out of the statistics: counting it would blame the entry for the operator's kill.
// A run that did not run (its process died before its first evaluation: SIGILL, command not found, ...) says
// nothing about the entry's training either: shown with its cause, never counted as a failed training run.
// An imported run without its end is different: nothing will resume it, and MLPerf's rule (the result summarizer)
// scores it as a run that did not succeed, so it counts (as not reached unless its log shows the target). One rule
// for every figure of an imported entry, the olympic mean included (the importer's olympic_minutes agrees).
bool CountsInStatistics(const RunInput& run, const std::string& source) {
  if (run.status == "did_not_run") return false;
  return run.status != "incomplete" || source != "study";
}

stats::RunCurve ToRunCurve(const RunInput& run) {
  stats::RunCurve curve;
  curve.points = run.points;
  // A run log without an end record has time_spent 0; its last evaluation is the best known lower bound.
  double last_time = run.points.empty() ? 0.0 : run.points.back().time;
  curve.time_spent = std::max(run.time_spent, last_time);
  return curve;
}

bool HasEpochs(const RunInput& run) { return !run.points.empty() && run.epochs.size() == run.points.size(); }

// The run's curve against epochs instead of training time: AnalyzeStability on these gives epochs to target.
stats::RunCurve ToEpochCurve(const RunInput& run) {
  stats::RunCurve curve;
  for (std::size_t i = 0; i < run.points.size(); ++i) curve.points.push_back({run.epochs[i], run.points[i].metric});
  curve.time_spent = run.epochs.back();
  return curve;
}

}  // namespace evalsuite::reports
