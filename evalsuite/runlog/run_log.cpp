#include "evalsuite/runlog/run_log.h"

#include <fmt/format.h>

#include <cmath>

namespace evalsuite::runlog {

const char* RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kReached:
      return "reached";
    case RunStatus::kNotReached:
      return "not_reached";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kIncomplete:
      return "incomplete";
  }
  return "incomplete";
}

std::optional<RunStatus> ParseRunStatus(const std::string& name) {
  for (RunStatus s : {RunStatus::kReached, RunStatus::kNotReached, RunStatus::kFailed, RunStatus::kIncomplete}) {
    if (name == RunStatusName(s)) return s;
  }
  return std::nullopt;
}

stats::RunCurve ToRunCurve(const RunLog& run) {
  stats::RunCurve curve;
  curve.points.reserve(run.points.size());
  for (const EvalPoint& p : run.points) curve.points.push_back({p.train_seconds, p.metric});
  curve.time_spent = run.train_seconds;
  if (curve.time_spent <= 0 && !run.points.empty()) curve.time_spent = run.points.back().train_seconds;
  return curve;
}

std::string FormatEpoch(double epoch) {
  const double whole = std::round(epoch);
  return std::abs(epoch - whole) < 1e-9 ? fmt::format("{}", static_cast<long long>(whole))
                                        : fmt::format("{:.2f}", epoch);
}

}  // namespace evalsuite::runlog
