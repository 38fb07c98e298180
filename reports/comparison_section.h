// Questions about two entries in the report and in `evalsuite compare`: for each pair the study plan names
// (`compare = [["A", "B"], ...]`) the full comparison of stats/entry_comparison.h, and for a sequential study
// (`[sequential]`, evalsuite/study/study_plan.h) the decision of its looks (stats/sequential_comparison.h) with
// why it stopped. Everything is computed from the runs as stored, so the report of a resumed study shows the
// decisions the study itself took.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_input.h"
#include "reports/report_table.h"
#include "stats/entry_comparison.h"
#include "stats/entry_verdict.h"
#include "stats/sequential_comparison.h"

namespace evalsuite::reports {

// The entry's counted runs (counted_runs.h) in run-index order as survival observations: TTA where it reached
// (the plan's crossing rule), else censored at its time spent; epochs likewise when every counted run has them.
stats::ComparedRuns ComparedRunsOf(const EntryInput& entry, std::size_t consecutive);

// The plan's [sequential] table as stored in the plan JSON (read tolerantly: a plan written by this evalsuite).
struct SequentialQuestion {
  int min_runs = 0;
  int max_runs = 0;
  double alpha = 0.05;
  bool stability = false;  // question = "stability"; else the pair below
  std::string a, b;
};
std::optional<SequentialQuestion> SequentialQuestionOf(const nlohmann::json& plan);

// The pairs of the plan's `compare` list, and the sequential question's pair if not listed.
std::vector<std::pair<std::string, std::string>> ComparePairsOf(const nlohmann::json& plan);

// The sequential decision on these entries' runs: only each entry's leading runs 0, 1, 2, ... count (a look at n
// runs per entry needs runs 0..n-1 of both), so the looks replay identically on resume. For the stability
// question, each look judges every entry on its first n runs at level 1 - (alpha n / max_runs increments): the
// linear spending function with a union bound over looks.
struct SequentialOutcome {
  bool stop = false;
  std::string result;  // comparison: stats::SequentialDecision::result; stability: "all entries judged" etc.
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
SequentialOutcome DecideSequentialQuestion(const SequentialQuestion& question, const std::vector<EntryInput>& entries,
                                           const stats::StabilityRule& rule);

// A sequential stability study's decision, when at least one look was taken (nullopt otherwise, or for a fixed-N
// study or a pair question).
std::optional<SequentialOutcome> SequentialStabilityOutcome(const StabilityReportInput& input);
// The entry's verdict as the sequential stability study decided it (nullopt when the outcome has none for it): the
// look's verdict, its first reason saying where and at which level it was judged and what the verdict at 95% on
// all `counted_runs` runs would read (`verdict_at_95`), so the table, the cards and `study show` give the decision.
std::optional<stats::StabilityVerdict> SequentialVerdictOf(const SequentialOutcome& outcome, const std::string& entry,
                                                           std::size_t counted_runs, const std::string& verdict_at_95);

// Compares the named entries of `entries` (UsageError naming the missing entry, or when their metrics, targets or
// time units differ). `critical_z` (a sequential study's stopping look) gives repeated confidence intervals.
stats::EntryComparison CompareNamedEntries(const std::vector<EntryInput>& entries, const std::string& a,
                                           const std::string& b, std::size_t consecutive,
                                           const stats::ComparisonOptions& options = {});

// The answer to "is A faster than B?" as the study gives it, asked by the report's pair rows and `compare` alike.
// For the pair of a sequential study, in either order, it is the sequential decision: the comparison of the runs
// its last look had (each entry's first runs_per_entry runs), at that look's critical value; counted runs recorded
// after that look are counted apart, never tested. Otherwise every counted run at `options`.
struct PairAnswer {
  stats::EntryComparison comparison;
  std::optional<SequentialOutcome> sequential;  // set for the sequential study's pair
  std::size_t after_look_a = 0, after_look_b = 0;  // counted runs of A and B not in the deciding look
};
PairAnswer AnswerPair(const StabilityReportInput& input, const std::string& a, const std::string& b,
                      const stats::ComparisonOptions& options = {});

nlohmann::json EntryComparisonJson(const stats::EntryComparison& c);

// An interval of the comparison JSON as text: "[0.85, 1.02]", a non-finite bound as "inf" or "-inf" (as the JSON
// writes it), "withheld (reason)" where the JSON has none. `percent`: shares as "55%".
std::string ComparisonIntervalText(const nlohmann::json& interval, const nlohmann::json& withheld,
                                   const char* format = "{:.2f}");
// P(A faster) as every output prints it: "71% [55%, 86%]" or "71% (interval withheld: ...)".
std::string ProbabilityAFasterText(const nlohmann::json& probability_a_faster);

// model["compare"]: {pairs: [EntryComparisonJson...], sequential: {...} or null}; null when the plan names no pair
// and is not sequential.
nlohmann::json CompareSectionJson(const StabilityReportInput& input);

ReportTable CompareTable(const nlohmann::json& model);
// The sequential study's lines (looks, why it stopped, validity), empty when not sequential.
std::vector<std::string> SequentialLines(const nlohmann::json& model);
inline constexpr const char* kCompareNote =
    "Runs that never reached the target are censored at the time they stopped. The verdict is the log-rank test's "
    "(permutation variance); the median ratio (A/B, below 1: A faster) and the restricted mean difference say how "
    "large the difference is.";

}  // namespace evalsuite::reports
