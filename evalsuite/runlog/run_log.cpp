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

std::string FormatEpoch(double epoch) {
  if (!std::isfinite(epoch)) return fmt::format("{}", epoch);
  const double whole = std::round(epoch);
  // Whole numbers print without a fraction; past 1e15 (no real epoch count) the integer conversion would not
  // be exact, and past 2^63 it would be undefined: printed as a float instead.
  if (std::abs(epoch - whole) < 1e-9 && std::abs(whole) < 1e15) return fmt::format("{}", static_cast<long long>(whole));
  return std::abs(epoch) < 1e15 ? fmt::format("{:.2f}", epoch) : fmt::format("{:g}", epoch);
}

}  // namespace evalsuite::runlog
