// The one rule for which stored runs count in which figure, and the one curve of a run. Every reader asks here:
// `study show`, the report (reports/ reads plain RunInputs through the same functions), `study list`'s recorded
// runs, resume and the holdout's models from the store. Header-only and free of SQLite, so that reports/ (which
// builds without the store) uses it too.
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

#include "stats/stability.h"

namespace evalsuite::store {

// The prefix of a stored error that marks a run which died before its first evaluation.
inline constexpr const char* kDidNotRunPrefix = "did not run: ";
// The prefix that marks a run which trained and then died of its environment (a full disk, no memory): like a run
// that did not run, it is left out of the statistics and run again by resume.
inline constexpr const char* kEnvironmentPrefix = "died of its environment: ";

// The status of an attempt as readers name it: runlog::RunStatusName's ("reached", "not_reached", "failed",
// "incomplete"), or "did_not_run" for a failed attempt that DidNotRun says nothing about the entry's training.
inline constexpr std::string_view kIncompleteStatus = "incomplete";
inline constexpr std::string_view kDidNotRunStatus = "did_not_run";

// True when a failed attempt said nothing about the entry's training: its process died before its first
// evaluation (a signal, a non-zero exit, a timeout), or of its environment after it (no space left, out of memory).
// Statistics leave it out and resume runs it again.
inline bool DidNotRun(bool failed, bool has_points, std::string_view error) {
  if (!failed) return false;
  return (!has_points && error.rfind(kDidNotRunPrefix, 0) == 0) || error.rfind(kEnvironmentPrefix, 0) == 0;
}

// Where an attempt goes in an entry's figures.
enum class RunCount {
  kCounted,      // in every statistic: reached, not reached, failed (crashed after reaching counts as reached)
  kInterrupted,  // a study's attempt cut with the study: resume runs it again under the same index
  kDidNotRun,    // shown with its cause, never counted as a failed training run; resume runs it again
};

// `status` as above; `resumable`: the attempt belongs to a study that resume can continue (entry source "study",
// study kind "study"). An imported run without its end is different: nothing will resume it, and MLPerf's rule
// (the result summarizer) scores it as a run that did not succeed, so it counts (as not reached unless its log
// shows the target); the importer's olympic mean agrees.
inline RunCount CountOf(std::string_view status, bool resumable) {
  if (status == kDidNotRunStatus) return RunCount::kDidNotRun;
  if (status == kIncompleteStatus && resumable) return RunCount::kInterrupted;
  return RunCount::kCounted;
}
inline bool CountsInStatistics(std::string_view status, bool resumable) {
  return CountOf(status, resumable) == RunCount::kCounted;
}
// A study's entries (and a store's studies) that resume continues are the ones of source/kind "study".
inline bool IsResumableSource(std::string_view source_or_kind) { return source_or_kind == "study"; }

// The run's curve for statistics: its evaluations, and the training time it spent in all. A run log without an
// end record has time_spent 0; its last evaluation is the best known lower bound, and a time spent below the last
// evaluation's (a log that contradicts itself) is raised to it.
inline stats::RunCurve RunCurveOf(std::vector<stats::CurvePoint> points, double time_spent) {
  stats::RunCurve curve;
  curve.points = std::move(points);
  const double last_time = curve.points.empty() ? 0.0 : curve.points.back().time;
  curve.time_spent = std::max(time_spent, last_time);
  return curve;
}

}  // namespace evalsuite::store
