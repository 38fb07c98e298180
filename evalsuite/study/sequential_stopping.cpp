#include "evalsuite/study/sequential_stopping.h"

#include "evalsuite/study/study_summary.h"
#include "reports/comparison_section.h"

namespace evalsuite::study {

std::optional<StoppingDecision> DecideSequentialStop(RunStore& store, const StudyPlan& plan) {
  if (!plan.sequential) return std::nullopt;
  std::optional<StudyInfo> info = store.FindStudy(plan.name);
  if (!info) return std::nullopt;
  info->plan = PlanToJson(plan);  // the plan being run (a study just created may not be read back yet)
  const reports::StabilityReportInput input = BuildReportInput(store, {*info});
  const std::optional<reports::SequentialQuestion> question = reports::SequentialQuestionOf(input.plan);
  if (!question) return std::nullopt;
  const reports::SequentialOutcome outcome = reports::DecideSequentialQuestion(*question, input.entries, input.rule);
  StoppingDecision d;
  d.stop = outcome.stop;
  d.result = outcome.result;
  d.reason = outcome.reason;
  d.looks = outcome.looks;
  d.runs_per_entry = outcome.runs_per_entry;
  return d;
}

}  // namespace evalsuite::study
