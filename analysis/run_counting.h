// The one rule for which attempts count, and an entry's counted runs and curves. Every output asks here: `study list`,
// `study show`, `study resume`'s choice, the report, `compare`, the sequential decision and the holdout's models.
//   - An attempt counts when it reached, did not reach or failed after training (a crash after reaching keeps its
//     TTA), or is an imported log without its end (MLPerf's rule: a run that did not succeed).
//   - An interrupted attempt and one that did not run are shown apart and never counted; resume runs their index
//     again.
//   - A run index counts once: its latest counted attempt (a Slurm task that ran twice, a run recorded again).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run.h"
#include "stats/stability.h"

namespace evalsuite::analysis {

// Where an attempt goes in its entry's figures.
enum class RunCount {
  kCounted,      // in every statistic
  kInterrupted,  // a study's attempt cut with the study: resume runs it again under the same index
  kDidNotRun,    // shown with its cause, never counted as a failed training run; resume runs it again
};
RunCount CountOf(RunStatus status);
inline bool CountsInStatistics(RunStatus status) { return CountOf(status) == RunCount::kCounted; }

// An attempt as far as counting needs it: the store's light listing (study list) and full runs alike.
struct AttemptKey {
  int index = 0;
  int attempt = 0;
  RunStatus status = RunStatus::kReached;
};

// Positions (into `attempts`) of the counted runs: for each run index, its latest counted attempt (every counted
// attempt of the highest attempt number, should two share it), in the order given.
std::vector<std::size_t> CountedPositions(const std::vector<AttemptKey>& attempts);

// What an entry's attempts came to.
struct AttemptTally {
  int counted = 0;      // runs in the statistics (one per run index)
  int interrupted = 0;  // attempts cut short (interrupted studies, Slurm requeues)
  int did_not_run = 0;  // attempts that died before training, or of their environment
  int superseded = 0;   // counted attempts of an index with a later counted attempt
};
AttemptTally TallyAttempts(const std::vector<AttemptKey>& attempts);

// The entry's counted runs, in the order recorded (run index, then attempt).
std::vector<const Run*> CountedRuns(const Entry& entry);
// Whether this attempt is one of CountedRuns(entry) (report.json's "counted").
std::vector<bool> CountedFlags(const Entry& entry);
// The counted runs with indices 0, 1, 2, ... without a gap: what a sequential look at n runs per entry may use.
std::vector<const Run*> LeadingCountedRuns(const Entry& entry);
// The entry's attempts that did not run, in the order recorded.
std::vector<const Run*> DidNotRunAttempts(const Entry& entry);
AttemptTally TallyAttempts(const Entry& entry);

// The run's curve in training time; time_spent is at least its last evaluation's (a log without an end record has
// time spent 0: its last evaluation is the best known lower bound).
stats::RunCurve TimeCurveOf(const Run& run);
// Whether the run's log gave every evaluation's epoch.
bool HasEpochs(const Run& run);
// The run's curve against epochs instead of training time (HasEpochs must hold).
stats::RunCurve EpochCurveOf(const Run& run);

// An entry's counted runs as curves: in training time, and against epochs when every counted run logged epochs.
struct CountedCurves {
  std::vector<const Run*> runs;
  std::vector<stats::RunCurve> time;
  std::optional<std::vector<stats::RunCurve>> epochs;
};
CountedCurves CountedCurvesOf(const Entry& entry);

// The cause of an attempt that did not run, without the "did not run: " / "died of its environment: " words its
// error opens with (they are for people reading the error alone); `label` gets "DID NOT RUN" or "DIED OF ITS
// ENVIRONMENT" (FAILED for another error).
std::string CauseOfNotRun(const std::string& error, std::string* label = nullptr);

// The words a did-not-run attempt's error opens with (study/execution writes them, CauseOfNotRun reads them).
inline constexpr const char* kDidNotRunPrefix = "did not run: ";
inline constexpr const char* kEnvironmentPrefix = "died of its environment: ";

}  // namespace evalsuite::analysis
