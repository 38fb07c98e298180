#include "analysis/run.h"

#include "evalsuite/common/error.h"

namespace evalsuite::analysis {

const char* RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kReached:
      return "reached";
    case RunStatus::kNotReached:
      return "not_reached";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kInterrupted:
    case RunStatus::kUnended:
      return "incomplete";
    case RunStatus::kDidNotRun:
      return "did_not_run";
  }
  return "failed";
}

const char* RunStatusKey(RunStatus status) {
  if (status == RunStatus::kInterrupted) return "interrupted";
  if (status == RunStatus::kUnended) return "unended";
  return RunStatusName(status);
}

std::optional<RunStatus> ParseRunStatusKey(std::string_view key) {
  for (RunStatus status : {RunStatus::kReached, RunStatus::kNotReached, RunStatus::kFailed, RunStatus::kInterrupted,
                           RunStatus::kUnended, RunStatus::kDidNotRun}) {
    if (key == RunStatusKey(status)) return status;
  }
  return std::nullopt;
}

RunStatus StatusOfAttempt(EndedAs ended, bool did_not_run, bool resumable) {
  if (did_not_run) return RunStatus::kDidNotRun;
  switch (ended) {
    case EndedAs::kReached:
      return RunStatus::kReached;
    case EndedAs::kNotReached:
      return RunStatus::kNotReached;
    case EndedAs::kFailed:
      return RunStatus::kFailed;
    case EndedAs::kNoEnd:
      return resumable ? RunStatus::kInterrupted : RunStatus::kUnended;
  }
  return RunStatus::kFailed;
}

const Entry& FindEntry(const std::vector<Entry>& entries, const std::string& name) {
  for (const Entry& e : entries) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const Entry& e : entries) names += (names.empty() ? "" : ", ") + e.name;
  throw UsageError(name, "no such entry (entries: " + names + ")");
}

}  // namespace evalsuite::analysis
