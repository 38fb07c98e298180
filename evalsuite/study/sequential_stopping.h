// A sequential study's stopping decision (the plan's [sequential] table, comparison_plan_keys.h), asked by the study
// runner before it starts and after every run it records: from the runs in the store, the looks taken so far and
// whether the question is answered (analysis/sequential_decision.h: group-sequential log-rank for a pair, or every
// entry's stability verdict). The decision is a function of the stored runs alone, so a killed and resumed study
// replays the same looks and takes the same decision.
#pragma once

#include <optional>
#include <string>

#include "evalsuite/store/run_store.h"
#include "evalsuite/study/study_plan.h"

namespace evalsuite::study {

struct StoppingDecision {
  bool stop = false;
  std::string result;  // e.g. "fast faster", "no difference shown", "every entry judged"
  std::string reason;  // why it stopped or goes on, with the looks
  int looks = 0;
  int runs_per_entry = 0;
};

// nullopt for a fixed-N study (no [sequential]).
std::optional<StoppingDecision> DecideSequentialStop(RunStore& store, const StudyPlan& plan);

}  // namespace evalsuite::study
