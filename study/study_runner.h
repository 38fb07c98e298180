// Runs a study end to end against a store: creates it (or continues the same plan), records every
// invocation's effective plan and environment, keeps any attempt a killed study left behind as "incomplete"
// (with its points), runs only the runs not yet finished and commits each the moment it ends.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "store/run_store.h"
#include "study/execution/study_run.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// Runs `plan` in the store: a new study, or — when a study of that name with the same plan exists — the
// runs it still lacks. A study of that name with a different plan is a UsageError naming what differs.
StudyOutcome RunStudy(const StudyPlan& plan, const StudyRunOptions& options);

// Continues a study from its stored plan. Without a name, the one unfinished study in the store.
StudyOutcome ResumeStudy(const std::optional<std::string>& name, const StudyRunOptions& options);

// Sets a flag on SIGINT, SIGTERM and SIGHUP for its lifetime (restores the old handlers after).
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
  const std::atomic<bool>* flag() const;
};

}  // namespace evalsuite::study
