#include "analysis/entry_analysis.h"

#include <string>

#include "common/stats_boundary.h"

namespace evalsuite::analysis {

stats::EntryStatistics AnalyzeEntryRuns(const std::string& entry_name, const std::vector<stats::RunCurve>& curves,
                                        const std::optional<std::vector<stats::RunCurve>>& epoch_curves,
                                        double threshold, std::size_t consecutive) {
  stats::EntryStatistics entry;
  entry.at_target = StatsOnUserData(EntryField(entry_name),
                                    [&] { return stats::AnalyzeStability(curves, threshold, 0.05, consecutive); });
  if (epoch_curves && !epoch_curves->empty()) {
    entry.in_epochs = StatsOnUserData(EntryField(entry_name) + " (epochs)", [&] {
      return stats::AnalyzeStability(*epoch_curves, threshold, 0.05, consecutive);
    });
    entry.variation = stats::DecomposeVariation(entry.at_target.tta, entry.in_epochs->tta);
  }
  return entry;
}

EntryAnalysis AnalyzeEntry(const Entry& entry, const stats::StabilityRule& rule,
                           const SequentialOutcome* sequential_stability) {
  EntryAnalysis a;
  a.counted = CountedCurvesOf(entry);
  a.tally = TallyAttempts(entry);
  a.did_not_run = DidNotRunAttempts(entry);
  a.none_ran = a.counted.runs.empty() && !a.did_not_run.empty();
  const std::size_t consecutive = std::max<std::size_t>(rule.consecutive_evaluations, 1);
  a.statistics = AnalyzeEntryRuns(entry.name, a.counted.time, a.counted.epochs, entry.threshold, consecutive);
  // TTA in epochs or steps (a log without a clock): "time per epoch" is the unit per epoch, not the machine's speed.
  if (!IsClockTimeUnit(entry.time_unit)) a.statistics.variation = stats::VariationDecomposition{};
  a.on_basis = stats::JudgeEntryStability(a.statistics, rule);
  a.on_basis.judged = nullptr;  // points into a.statistics, which moves with the result
  a.verdict = a.on_basis.verdict;
  if (sequential_stability) {
    if (auto decided =
            SequentialVerdictOf(*sequential_stability, entry.name, a.counted.runs.size(), a.verdict.result)) {
      a.verdict = std::move(*decided);
      a.decided_by_sequential_look = true;
    }
  }
  if (!a.did_not_run.empty()) {
    const std::string first = CauseOfNotRun(a.did_not_run.front()->error);
    const std::string count = std::to_string(a.did_not_run.size()) + " of " + std::to_string(entry.runs.size());
    if (a.none_ran) {
      // No verdict on stability: the entry could not run here, and the outputs say why instead.
      a.verdict.stable = false;
      a.verdict.result = kDidNotRunResult;
      a.verdict.reasons = {
          count +
              " runs left no evaluation that could be read (they died first, or their log could not be read), so "
              "nothing can be said about "
              "this entry's stability on this machine",
          "first run: " + first};
      a.verdict.reached_runs_needed.reset();
      a.decided_by_sequential_look = false;
    } else {
      a.verdict.reasons.insert(a.verdict.reasons.begin(),
                               count +
                                   " runs did not run (no evaluation that could be read, or they died of a full disk "
                                   "or no memory) and are left out: " +
                                   first);
    }
  }
  return a;
}

}  // namespace evalsuite::analysis
