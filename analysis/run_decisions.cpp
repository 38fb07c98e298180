#include "analysis/run_decisions.h"

#include "analysis/run_counting.h"
#include "stats/curve.h"

namespace evalsuite::analysis {

ProcessFailure DecideProcessFailure(bool trained, const std::string& cause, bool environment) {
  ProcessFailure failure;
  failure.did_not_run = !trained || environment;
  failure.error = cause;
  if (!trained) {
    failure.error = kDidNotRunPrefix + cause;
  } else if (environment) {
    failure.error = kEnvironmentPrefix + cause;
  }
  return failure;
}

bool DidNotRunByErrorWords(EndedAs ended, bool has_points, std::string_view error) {
  if (ended != EndedAs::kFailed) return false;
  return (!has_points && error.rfind(kDidNotRunPrefix, 0) == 0) || error.rfind(kEnvironmentPrefix, 0) == 0;
}

bool CountsAsFailed(const Run& run, double threshold, std::size_t consecutive_evaluations) {
  if (run.status != RunStatus::kFailed) return false;
  return !stats::TimeToTarget(TimeCurveOf(run).points, threshold, consecutive_evaluations);
}

}  // namespace evalsuite::analysis
