// The report's and `evalsuite compare`'s rendering of questions about two entries: for each pair the study plan
// names (`compare = [["A", "B"], ...]`) the comparison that analysis/pair_answer.h answers, and for a sequential study
// the decision of its looks (analysis/sequential_decision.h) with why it stopped. This file only turns those answers
// into JSON and table rows; what is decided is decided in analysis/.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/report_input.h"
#include "reports/report_model.h"
#include "reports/report_table.h"
#include "stats/entry_comparison.h"

namespace evalsuite::reports {

nlohmann::json EntryComparisonJson(const stats::EntryComparison& c);

// A comparison's interval as text: "[0.85, 1.02]", a non-finite bound as "inf" or "-inf" (as EntryComparisonJson
// writes it), "(reason)" where it is withheld, "(no interval)" where there is neither.
std::string ComparisonIntervalText(const std::optional<stats::Interval>& interval, const std::string& withheld,
                                   const char* format = "{:.2f}");
// P(A faster) as every output prints it: "71% [55%, 86%]" or "71% (interval withheld: ...)".
std::string ProbabilityAFasterText(const stats::ImprovementProbability& probability_a_faster);

// The pairs the plan names and the sequential decision; none when the plan names no pair and is not sequential.
std::optional<CompareModel> CompareSection(const StabilityReportInput& input);
// report.json's "compare": {pairs: [EntryComparisonJson... + sequential, runs_after_look], sequential: {...} or null}.
nlohmann::json CompareSectionJson(const CompareModel& compare);
// How a sequential study decides, as the report's methods and its lines state it.
std::string SequentialMethod(const analysis::SequentialSettings& question);

ReportTable CompareTable(const CompareModel& compare);
// The sequential study's lines (looks, why it stopped, validity), empty when not sequential.
std::vector<std::string> SequentialLines(const CompareModel& compare);
inline constexpr const char* kCompareNote =
    "Runs that never reached the target are censored at the time they stopped. The verdict is the Brunner-Munzel "
    "test's of P(A faster) = 1/2 (a sequential study's look: the log-rank test's, whose boundaries it uses); the "
    "log-rank z is shown beside it; the median ratio (A/B, below 1: A faster) and the restricted mean difference say "
    "how large the difference is.";

}  // namespace evalsuite::reports
