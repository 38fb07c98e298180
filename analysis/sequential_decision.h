// A sequential study's decision ([sequential], analysis/analysis_settings.h), from the runs as recorded: the looks
// taken so far and whether the question is answered. The study runner asks it before it starts and after every run
// (study/execution/sequential_stopping.h), the report and `study show` print it, `compare` answers the
// study's pair with it. Only each entry's leading counted runs 0, 1, 2, ... count (a look at n runs per entry needs
// runs 0..n-1 of both), so a killed and resumed study replays the same looks and takes the same decision.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analysis_settings.h"
#include "analysis/run.h"
#include "stats/sequential_comparison.h"
#include "stats/stability.h"

namespace evalsuite::analysis {

// For the pair question: the group-sequential log-rank test. For the stability question, each look judges every
// entry on its first n runs at level 1 - (alpha n / max_runs increments): the linear spending function with a union
// bound over looks.
struct SequentialOutcome {
  bool stop = false;
  std::string result;  // comparison: stats::SequentialDecision::result; stability: "every entry judged" etc.
  std::string reason;
  int looks = 0;
  int runs_per_entry = 0;
  std::optional<double> critical_z;  // comparison: the last look's boundary
  std::vector<stats::SequentialLook> history;
  // Stability: the level of the last look's intervals (1 - alpha_k) and each entry's verdict judged there, on its
  // first runs_per_entry runs: THE verdict of a sequential stability study, which the table, the cards and
  // `study show` print instead of a verdict at 95% on every run.
  double level = 0;
  std::vector<std::pair<std::string, stats::StabilityVerdict>> verdicts;
};
SequentialOutcome DecideSequentialQuestion(const SequentialSettings& question, const std::vector<Entry>& entries,
                                           const stats::StabilityRule& rule);

// A sequential stability study's decision, when at least one look was taken (nullopt otherwise, or for a fixed-N
// study or a pair question).
std::optional<SequentialOutcome> SequentialStabilityOutcome(const std::vector<Entry>& entries,
                                                            const AnalysisSettings& settings);
// The entry's verdict as the sequential stability study decided it (nullopt when the outcome has none for it): the
// look's verdict, its first reason saying where and at which level it was judged and what the verdict at 95% on
// all `counted_runs` runs would read (`verdict_at_95`), so the table, the cards and `study show` give the decision.
std::optional<stats::StabilityVerdict> SequentialVerdictOf(const SequentialOutcome& outcome, const std::string& entry,
                                                           std::size_t counted_runs, const std::string& verdict_at_95);

}  // namespace evalsuite::analysis
