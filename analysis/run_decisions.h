// The decisions about one attempt that the store, the study runner and the reports all ask: whether a process that
// failed "did not run" (and the words its error then opens with), the same decision read back from those words in a
// store written before the outcome column, and whether a counted attempt counts as a failed run. Pure: no SQLite.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "analysis/run.h"

namespace evalsuite::analysis {

// A failed process as it is recorded: `did_not_run` when it died before its first evaluation (`trained` false) or of
// its environment (no space, no memory) after it; `error` is the cause, opening with kDidNotRunPrefix or
// kEnvironmentPrefix (analysis/run_counting.h) when it did not run, for people who read the error alone.
struct ProcessFailure {
  bool did_not_run = false;
  std::string error;
};
ProcessFailure DecideProcessFailure(bool trained, const std::string& cause, bool environment);

// The same decision read back from what a store of schema 1 kept (its end status's word, whether it has evaluations,
// its error): a failed attempt whose error opens with the did-not-run words and that has no evaluation, or whose
// error opens with the environment's words. Used once, by the migration that stores each attempt's outcome.
bool DidNotRunByErrorWords(EndedAs ended, bool has_points, std::string_view error);

// Whether a run counts as a failed run in an entry's tally (reached + failed + not reached = runs): it failed after
// training (RunStatus::kFailed; one that did not run is shown apart) and never reached `threshold` for
// `consecutive_evaluations` evaluations in a row. A crash after reaching keeps its TTA and counts as reached.
bool CountsAsFailed(const Run& run, double threshold, std::size_t consecutive_evaluations);

}  // namespace evalsuite::analysis
