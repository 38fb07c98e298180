#include "analysis/run.h"

#include "common/error.h"

namespace evalsuite::analysis {

namespace {

// Each status with its stored key and the name outputs write (interrupted and unended are both "incomplete" there).
struct StatusNames {
  RunStatus status;
  const char* key;
  const char* name;
};
constexpr StatusNames kStatusNames[] = {
    {RunStatus::kReached, "reached", "reached"},    {RunStatus::kNotReached, "not_reached", "not_reached"},
    {RunStatus::kFailed, "failed", "failed"},       {RunStatus::kInterrupted, "interrupted", "incomplete"},
    {RunStatus::kUnended, "unended", "incomplete"}, {RunStatus::kDidNotRun, "did_not_run", "did_not_run"},
};

const StatusNames& NamesOf(RunStatus status) {
  for (const StatusNames& names : kStatusNames) {
    if (names.status == status) return names;
  }
  return kStatusNames[2];  // not reached: every status is in the table
}

}  // namespace

const char* RunStatusName(RunStatus status) { return NamesOf(status).name; }

const char* RunStatusKey(RunStatus status) { return NamesOf(status).key; }

std::optional<RunStatus> ParseRunStatusKey(std::string_view key) {
  for (const StatusNames& names : kStatusNames) {
    if (key == names.key) return names.status;
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

bool IsClockTimeUnit(std::string_view unit) { return unit == "seconds" || unit == "minutes" || unit == "hours"; }

const Entry& FindEntry(const std::vector<Entry>& entries, const std::string& name) {
  for (const Entry& e : entries) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const Entry& e : entries) names += (names.empty() ? "" : ", ") + e.name;
  throw UsageError(name, "no such entry (entries: " + names + ")");
}

}  // namespace evalsuite::analysis
