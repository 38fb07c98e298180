#include "evalsuite/study/sequential_stopping.h"

#include "analysis/sequential_decision.h"
#include "evalsuite/store/analysis_entries.h"

namespace evalsuite::study {

std::optional<StoppingDecision> DecideSequentialStop(RunStore& store, const StudyPlan& plan) {
  if (!plan.analysis.sequential) return std::nullopt;
  std::optional<StudyInfo> info = store.FindStudy(plan.name);
  if (!info) return std::nullopt;
  // The plan being run, typed as it was read (a study just created may not be read back yet): no stored JSON.
  const analysis::SequentialOutcome outcome = analysis::DecideSequentialQuestion(
      *plan.analysis.sequential, store::LoadAnalysisEntries(store, *info), plan.analysis.rule);
  StoppingDecision d;
  d.stop = outcome.stop;
  d.result = outcome.result;
  d.reason = outcome.reason;
  d.looks = outcome.looks;
  d.runs_per_entry = outcome.runs_per_entry;
  return d;
}

}  // namespace evalsuite::study
