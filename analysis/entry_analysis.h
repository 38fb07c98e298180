// One entry analysed as every output shows it: its counted runs (analysis/run_counting.h), their statistics
// (stats/stability_statistics.h: TTA, epochs to target where every counted run logged epochs, the split of TTA's
// variation), the verdict on the rule's basis (stats/entry_verdict.h), and the verdict's two overrides: a sequential
// stability study's look decides it, and an entry none of whose runs trained here DID NOT RUN. The report and
// `study show` both ask here, so they read the same numbers and the same verdict.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run.h"
#include "analysis/run_counting.h"
#include "analysis/sequential_decision.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"
#include "stats/stability_statistics.h"

namespace evalsuite::analysis {

inline constexpr const char* kDidNotRunResult = "DID NOT RUN";

struct EntryAnalysis {
  CountedCurves counted;  // the counted runs and their curves
  AttemptTally tally;
  std::vector<const Run*> did_not_run;  // attempts that did not run, in the order recorded
  bool none_ran = false;                // no counted run, and some attempt did not run: the verdict is DID NOT RUN
  stats::EntryStatistics statistics;
  // The verdict on the rule's basis before the overrides (basis, result on epochs, epochs unavailable); its
  // `judged` pointer is cleared, ask JudgedStatistics().
  stats::EntryVerdict on_basis;
  stats::StabilityVerdict verdict;  // THE verdict: on_basis's, or the sequential look's, or DID NOT RUN
  bool decided_by_sequential_look = false;

  const stats::StabilityStats& JudgedStatistics() const {
    return on_basis.basis == stats::kBasisEpochs && statistics.in_epochs ? *statistics.in_epochs : statistics.at_target;
  }
};

// `sequential_stability`: the study's sequential stability decision when it took a look (SequentialStabilityOutcome),
// else null. Bad run data is a user-data error naming the entry (common/stats_boundary.h).
EntryAnalysis AnalyzeEntry(const Entry& entry, const stats::StabilityRule& rule,
                           const SequentialOutcome* sequential_stability);

// The statistics of the given curves (the counted runs in training time, and against epochs where every one has
// epochs): what AnalyzeEntry computes, for callers that hold curves of their own (a pilot's runs).
stats::EntryStatistics AnalyzeEntryRuns(const std::string& entry_name, const std::vector<stats::RunCurve>& curves,
                                        const std::optional<std::vector<stats::RunCurve>>& epoch_curves,
                                        double threshold, std::size_t consecutive);

}  // namespace evalsuite::analysis
