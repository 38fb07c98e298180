#include "analysis/pair_answer.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/compared_runs.h"
#include "common/error.h"
#include "stats/restricted_mean.h"

namespace evalsuite::analysis {

stats::EntryComparison CompareNamedEntries(const std::vector<Entry>& entries, const std::string& a,
                                           const std::string& b, std::size_t consecutive,
                                           const stats::ComparisonOptions& options) {
  const Entry& ea = FindEntry(entries, a);
  const Entry& eb = FindEntry(entries, b);
  if (ea.metric != eb.metric || ea.threshold != eb.threshold || ea.time_unit != eb.time_unit) {
    throw UsageError(a + " " + b,
                     fmt::format("TTA compares like with like: {} has {} >= {:g} in {}, {} has {} >= "
                                 "{:g} in {}",
                                 a, ea.metric, ea.threshold, ea.time_unit, b, eb.metric, eb.threshold, eb.time_unit));
  }
  const stats::ComparedRuns ra = ComparedRunsOf(ea, consecutive), rb = ComparedRunsOf(eb, consecutive);
  if (ra.tta.empty() || rb.tta.empty()) {
    throw UsageError(ra.tta.empty() ? a : b, "has no counted run to compare");
  }
  if (options.horizon) {
    // Past an entry's last observed time its curve is unknown: a restricted mean there would be extrapolated.
    for (const stats::ComparedRuns* runs : {&ra, &rb}) {
      const double end = stats::FollowUpEnd(runs->tta);
      if (*options.horizon > end) {
        throw UsageError("--horizon", fmt::format("{:g} lies beyond the runs of {}: its last observed time is {:g} "
                                                  "(a run still below the target stopped there), so its curve after "
                                                  "that is unknown; give a horizon of at most {:g}",
                                                  *options.horizon, runs->name, end,
                                                  std::min(stats::FollowUpEnd(ra.tta), stats::FollowUpEnd(rb.tta))));
      }
    }
  }
  return stats::CompareEntries(ra, rb, options);
}

PairAnswer AnswerPair(const std::vector<Entry>& entries, const AnalysisSettings& settings, const std::string& a,
                      const std::string& b, const stats::ComparisonOptions& options) {
  PairAnswer answer;
  const std::size_t consecutive = settings.rule.consecutive_evaluations;
  const auto& question = settings.sequential;
  const bool sequential_pair = question && !question->stability &&
                               ((question->a == a && question->b == b) || (question->a == b && question->b == a));
  if (!sequential_pair) {
    answer.comparison = CompareNamedEntries(entries, a, b, consecutive, options);
    return answer;
  }
  answer.sequential = DecideSequentialQuestion(*question, entries, settings.rule);
  const SequentialOutcome& outcome = *answer.sequential;
  stats::ComparisonOptions look = options;
  look.alpha = question->alpha;
  if (outcome.looks == 0) {
    // No look taken: nothing was tested. The runs there are are described at the first look's boundary.
    look.critical_z = stats::SequentialComparisonDesign(question->min_runs, question->max_runs, question->alpha)
                          .CriticalZ(question->min_runs);
    answer.comparison = CompareNamedEntries(entries, a, b, consecutive, look);
    answer.comparison.result = "no decision yet";
    answer.comparison.verdict = "no decision yet (sequential study: " + outcome.reason + ")";
    return answer;
  }
  look.critical_z = outcome.critical_z;
  const Entry& ea = FindEntry(entries, a);
  const Entry& eb = FindEntry(entries, b);
  CompareNamedEntries(entries, a, b, consecutive, look);  // the same checks (metric, target, unit) as any pair
  const auto n = static_cast<std::size_t>(outcome.runs_per_entry);
  answer.comparison =
      stats::CompareEntries(LeadingComparedRuns(ea, consecutive, n), LeadingComparedRuns(eb, consecutive, n), look);
  answer.after_look_a = ComparedRunsOf(ea, consecutive).tta.size() - n;
  answer.after_look_b = ComparedRunsOf(eb, consecutive).tta.size() - n;
  const std::string when = fmt::format("sequential study, look {} at {} runs per entry: ", outcome.looks, n);
  if (!outcome.stop) {
    answer.comparison.result = "no decision yet";
    answer.comparison.verdict =
        "no decision yet (" + when + outcome.reason + "); at that look: " + answer.comparison.verdict;
  } else {
    answer.comparison.verdict = when + answer.comparison.verdict;
  }
  return answer;
}

}  // namespace evalsuite::analysis
