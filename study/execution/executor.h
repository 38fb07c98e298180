// Where a study's runs run. A study decides which runs to do (its plan, and what the recorder says is done); an
// executor decides where: local child processes with device and CPU slots (LocalExecutor), or a Slurm job array
// (slurm_executor.h). Every executor produces run folders (run log + end record) and hands what it concludes from
// each, on resume too, to the RunRecorder, which alone writes the store.
#pragma once

#include <memory>

#include "study/execution/progress.h"
#include "study/execution/run_recorder.h"
#include "study/execution/study_run.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

class Executor {
 public:
  virtual ~Executor() = default;
  // Records what earlier invocations left in the run folders, then runs the planned runs that are not done.
  // Returns true when the study ended complete; false when stopped (or, on Slurm, runs are still missing).
  virtual bool Run(RunRecorder& recorder, ProgressReporter& progress, StudyOutcome& outcome) = 0;
};

// The plan's executor ("local" or "slurm").
std::unique_ptr<Executor> MakeExecutor(const StudyPlan& plan, const StudyRunOptions& options);

}  // namespace evalsuite::study
