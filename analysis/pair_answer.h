// "Is A faster than B?" as the study answers it, for the report's pair rows and `evalsuite compare` alike. For the
// pair of a sequential study, in either order, it is the sequential decision (analysis/sequential_decision.h): the
// comparison of the runs its last look had (each entry's first runs_per_entry runs), at that look's critical value;
// counted runs recorded after that look are counted apart, never tested. Any other pair: every counted run.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"
#include "analysis/run.h"
#include "analysis/sequential_decision.h"
#include "stats/entry_comparison.h"

namespace evalsuite::analysis {

// Compares the named entries of `entries` (UsageError naming the missing entry, or when their metrics, targets or
// time units differ). `critical_z` (a sequential study's stopping look) gives repeated confidence intervals.
stats::EntryComparison CompareNamedEntries(const std::vector<Entry>& entries, const std::string& a,
                                           const std::string& b, std::size_t consecutive,
                                           const stats::ComparisonOptions& options = {});

struct PairAnswer {
  stats::EntryComparison comparison;
  std::optional<SequentialOutcome> sequential;     // set for the sequential study's pair
  std::size_t after_look_a = 0, after_look_b = 0;  // counted runs of A and B not in the deciding look
};
PairAnswer AnswerPair(const std::vector<Entry>& entries, const AnalysisSettings& settings, const std::string& a,
                      const std::string& b, const stats::ComparisonOptions& options = {});

}  // namespace evalsuite::analysis
