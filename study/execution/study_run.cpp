#include "study/execution/study_run.h"

#include <set>
#include <utility>

#include "analysis/run_decisions.h"
#include "store/analysis_entries.h"

namespace evalsuite::study {

void StudyOutcome::CountFinished(const StudyPlan& plan, const store::RunRecord& record) {
  ++ran;
  const PlannedEntry* entry = plan.FindEntry(record.entry);
  const analysis::Run run = store::ToAnalysisRun(record, /*resumable=*/true);
  if (run.status == analysis::RunStatus::kDidNotRun) {
    ++did_not_run;
  } else if (analysis::CountsAsFailed(run, entry != nullptr ? entry->threshold : 0,
                                      plan.analysis.rule.consecutive_evaluations)) {
    ++failed;
  }
}

int CountFinishedPlannedRuns(const StudyPlan& plan, const std::vector<store::RunRecord>& runs) {
  std::set<std::pair<std::string, int>> finished;
  for (const store::RunRecord& r : runs) {
    if (store::IsDoneRun(r) && plan.FindRun(r.entry, r.run_index)) {
      finished.insert({r.entry, r.run_index});
    }
  }
  return static_cast<int>(finished.size());
}

}  // namespace evalsuite::study
