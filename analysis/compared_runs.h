// An entry's counted runs (analysis/run_counting.h) as survival observations, for the comparison of two entries
// (stats/entry_comparison.h) and the sequential looks: TTA where a run reached (the rule's crossing), else censored
// at the time it spent; epochs likewise when every run has them.
#pragma once

#include <cstddef>

#include "analysis/run.h"
#include "stats/entry_comparison.h"
#include "stats/stability.h"

namespace evalsuite::analysis {

stats::SurvivalObservation ObserveRun(const stats::RunCurve& curve, double threshold, std::size_t consecutive);

// Every counted run, in run-index order.
stats::ComparedRuns ComparedRunsOf(const Entry& entry, std::size_t consecutive);
// The first `n` leading counted runs (runs 0..n-1 without a gap): what a sequential look at n runs per entry had.
stats::ComparedRuns LeadingComparedRuns(const Entry& entry, std::size_t consecutive, std::size_t n);

}  // namespace evalsuite::analysis
