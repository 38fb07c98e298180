// A sequential study's stopping decision (the plan's [sequential] table, comparison_plan_keys.h), asked by the study
// runner before it starts and after every run it records: from the runs in the store, the looks taken so far and
// whether the question is answered (analysis/sequential_decision.h: group-sequential log-rank for a pair, or every
// entry's stability verdict). The decision is a function of the stored runs alone, so a killed and resumed study
// replays the same looks and takes the same decision.
#pragma once

#include <optional>
#include <string>

#include "analysis/sequential_decision.h"
#include "store/run_store.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// stop, result ("fast faster", "no difference shown", "every entry judged"), reason, looks, runs_per_entry.
using StoppingDecision = analysis::SequentialOutcome;

// nullopt for a fixed-N study (no [sequential]).
std::optional<StoppingDecision> DecideSequentialStop(store::RunStore& store, const StudyPlan& plan);

}  // namespace evalsuite::study
