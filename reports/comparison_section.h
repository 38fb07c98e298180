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
};
SequentialOutcome DecideSequentialQuestion(const SequentialQuestion& question, const std::vector<EntryInput>& entries,
                                           const stats::StabilityRule& rule);

// Compares the named entries of `entries` (UsageError naming the missing entry, or when their metrics, targets or
// time units differ). `critical_z` (a sequential study's stopping look) gives repeated confidence intervals.
stats::EntryComparison CompareNamedEntries(const std::vector<EntryInput>& entries, const std::string& a,
                                           const std::string& b, std::size_t consecutive,
                                           const stats::ComparisonOptions& options = {});

nlohmann::json EntryComparisonJson(const stats::EntryComparison& c);

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
