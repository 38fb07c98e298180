#include "analysis/run_counting.h"

#include <algorithm>
#include <map>

namespace evalsuite::analysis {
namespace {

std::vector<AttemptKey> KeysOf(const Entry& entry) {
  std::vector<AttemptKey> keys;
  keys.reserve(entry.runs.size());
  for (const Run& run : entry.runs) keys.push_back({run.index, run.attempt, run.status});
  return keys;
}

}  // namespace

RunCount CountOf(RunStatus status) {
  switch (status) {
    case RunStatus::kDidNotRun:
      return RunCount::kDidNotRun;
    case RunStatus::kInterrupted:
      return RunCount::kInterrupted;
    default:
      return RunCount::kCounted;
  }
}

std::vector<std::size_t> CountedPositions(const std::vector<AttemptKey>& attempts) {
  std::map<int, int> latest;  // run index -> its highest counted attempt number
  for (const AttemptKey& a : attempts) {
    if (!CountsInStatistics(a.status)) continue;
    auto [it, inserted] = latest.emplace(a.index, a.attempt);
    if (!inserted) it->second = std::max(it->second, a.attempt);
  }
  std::vector<std::size_t> counted;
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    const AttemptKey& a = attempts[i];
    if (CountsInStatistics(a.status) && latest[a.index] == a.attempt) counted.push_back(i);
  }
  return counted;
}

AttemptTally TallyAttempts(const std::vector<AttemptKey>& attempts) {
  AttemptTally tally;
  int counted_attempts = 0;
  for (const AttemptKey& a : attempts) {
    switch (CountOf(a.status)) {
      case RunCount::kCounted:
        ++counted_attempts;
        break;
      case RunCount::kInterrupted:
        ++tally.interrupted;
        break;
      case RunCount::kDidNotRun:
        ++tally.did_not_run;
        break;
    }
  }
  tally.counted = static_cast<int>(CountedPositions(attempts).size());
  tally.superseded = counted_attempts - tally.counted;
  return tally;
}

AttemptTally TallyAttempts(const Entry& entry) { return TallyAttempts(KeysOf(entry)); }

std::vector<const Run*> CountedRuns(const Entry& entry) {
  std::vector<const Run*> runs;
  for (std::size_t i : CountedPositions(KeysOf(entry))) runs.push_back(&entry.runs[i]);
  return runs;
}

std::vector<bool> CountedFlags(const Entry& entry) {
  std::vector<bool> flags(entry.runs.size(), false);
  for (std::size_t i : CountedPositions(KeysOf(entry))) flags[i] = true;
  return flags;
}

std::vector<const Run*> LeadingCountedRuns(const Entry& entry) {
  std::map<int, const Run*> by_index;
  for (const Run* run : CountedRuns(entry)) by_index.emplace(run->index, run);
  std::vector<const Run*> leading;
  for (int i = 0; by_index.count(i); ++i) leading.push_back(by_index[i]);
  return leading;
}

std::vector<const Run*> DidNotRunAttempts(const Entry& entry) {
  std::vector<const Run*> runs;
  for (const Run& run : entry.runs) {
    if (CountOf(run.status) == RunCount::kDidNotRun) runs.push_back(&run);
  }
  return runs;
}

stats::RunCurve TimeCurveOf(const Run& run) {
  stats::RunCurve curve;
  curve.points = run.points;
  const double last_time = curve.points.empty() ? 0.0 : curve.points.back().time;
  curve.time_spent = std::max(run.time_spent, last_time);
  return curve;
}

bool HasEpochs(const Run& run) { return !run.points.empty() && run.epochs.size() == run.points.size(); }

stats::RunCurve EpochCurveOf(const Run& run) {
  stats::RunCurve curve;
  curve.points.reserve(run.points.size());
  for (std::size_t i = 0; i < run.points.size(); ++i) curve.points.push_back({run.epochs[i], run.points[i].metric});
  curve.time_spent = run.epochs.empty() ? 0.0 : run.epochs.back();
  return curve;
}

CountedCurves CountedCurvesOf(const Entry& entry) {
  CountedCurves curves;
  curves.runs = CountedRuns(entry);
  curves.epochs.emplace();
  for (const Run* run : curves.runs) {
    curves.time.push_back(TimeCurveOf(*run));
    if (curves.epochs && HasEpochs(*run)) {
      curves.epochs->push_back(EpochCurveOf(*run));
    } else {
      curves.epochs.reset();
    }
  }
  return curves;
}

std::string CauseOfNotRun(const std::string& error, std::string* label) {
  for (const auto& [prefix, name] :
       {std::pair<std::string, const char*>{kDidNotRunPrefix, "DID NOT RUN"},
        std::pair<std::string, const char*>{kEnvironmentPrefix, "DIED OF ITS ENVIRONMENT"}}) {
    if (error.rfind(prefix, 0) == 0) {
      if (label != nullptr) *label = name;
      return error.substr(prefix.size());
    }
  }
  if (label != nullptr) *label = "FAILED";
  return error;
}

}  // namespace evalsuite::analysis
