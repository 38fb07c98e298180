#include "study/execution/sequential_stopping.h"

#include "store/analysis_entries.h"

namespace evalsuite::study {

std::optional<StoppingDecision> DecideSequentialStop(store::RunStore& store, const StudyPlan& plan) {
  if (!plan.analysis.sequential) return std::nullopt;
  std::optional<store::StudyInfo> info = store.FindStudy(plan.name);
  if (!info) return std::nullopt;
  // The plan being run, typed as it was read (a study just created may not be read back yet): no stored JSON.
  return analysis::DecideSequentialQuestion(*plan.analysis.sequential, store::LoadAnalysisEntries(store, *info),
                                            plan.analysis.rule);
}

}  // namespace evalsuite::study
