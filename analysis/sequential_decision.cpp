#include "analysis/sequential_decision.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/compared_runs.h"
#include "analysis/run_counting.h"
#include "stats/curve.h"
#include "stats/entry_verdict.h"

namespace evalsuite::analysis {
namespace {

// Why no look could be taken: the first entry whose leading counted runs stop short of the first look, and what
// its next run was ("goes on" would promise a look that the recorded runs cannot give).
std::string WhyNoLook(const std::vector<const Entry*>& entries, int min_runs) {
  for (const Entry* e : entries) {
    const std::size_t leading = LeadingCountedRuns(*e).size();
    if (leading >= static_cast<std::size_t>(min_runs)) continue;
    const Run* blocking = nullptr;
    for (const Run& run : e->runs) {
      if (run.index == static_cast<int>(leading)) blocking = &run;
    }
    if (e->runs.empty()) {
      return fmt::format("no look yet: the first look needs {} runs of every entry, and {} has no run recorded",
                         min_runs, e->name);
    }
    if (blocking) {
      std::string cause = blocking->error;
      if (cause.rfind(kDidNotRunPrefix, 0) == 0) cause = cause.substr(std::string(kDidNotRunPrefix).size());
      if (cause.size() > 160) cause = cause.substr(0, 157) + "...";
      return fmt::format(
          "cannot look: the first look needs runs 0 to {} of every entry to count, and {}'s run {} does not count "
          "({}{}); {} of its {} recorded runs count",
          min_runs - 1, e->name, leading,
          blocking->status == RunStatus::kDidNotRun ? "it did not run" : RunStatusName(blocking->status),
          cause.empty() ? "" : ": " + cause, leading, e->runs.size());
    }
    return fmt::format("no look yet: the first look needs {} runs of every entry, and {} has {} so far", min_runs,
                       e->name, leading);
  }
  return "goes on: the first look comes at " + std::to_string(min_runs) + " runs per entry";
}

}  // namespace

SequentialOutcome DecideSequentialQuestion(const SequentialSettings& q, const std::vector<Entry>& entries,
                                           const stats::StabilityRule& rule) {
  const std::size_t consecutive = rule.consecutive_evaluations;
  SequentialOutcome out;
  if (!q.stability) {
    auto leading = [&](const std::string& name) {
      const Entry& entry = FindEntry(entries, name);
      std::vector<stats::SurvivalObservation> obs;
      for (const Run* run : LeadingCountedRuns(entry)) {
        obs.push_back(ObserveRun(TimeCurveOf(*run), entry.threshold, consecutive));
      }
      return obs;
    };
    const stats::SequentialComparisonDesign design(q.min_runs, q.max_runs, q.alpha);
    const stats::SequentialDecision d = design.Decide(leading(q.a), leading(q.b));
    out.stop = d.stop;
    out.result = d.result == "A faster" ? q.a + " faster" : d.result == "B faster" ? q.b + " faster" : d.result;
    out.reason =
        d.looks.empty() ? WhyNoLook({&FindEntry(entries, q.a), &FindEntry(entries, q.b)}, q.min_runs) : d.reason;
    out.looks = static_cast<int>(d.looks.size());
    out.runs_per_entry = d.runs_per_entry;
    if (!d.looks.empty()) out.critical_z = d.critical_z;
    out.history = d.looks;
    return out;
  }
  // Stability: every entry judged on its first n runs, each look at level 1 - alpha_k with alpha_k the linear
  // spending function's increment (alpha min_runs / max_runs at the first look, alpha / max_runs after), so by the
  // union bound all looks together err with probability at most alpha.
  std::size_t available = q.max_runs;
  std::vector<std::vector<const Run*>> runs;
  for (const Entry& e : entries) {
    runs.push_back(LeadingCountedRuns(e));
    available = std::min(available, runs.back().size());
  }
  if (entries.empty()) available = 0;
  std::vector<const Entry*> all;
  all.reserve(entries.size());
  for (const Entry& e : entries) all.push_back(&e);
  out.reason = entries.empty() ? "no look yet: the study has no entry" : WhyNoLook(all, q.min_runs);
  for (int n = q.min_runs; n <= static_cast<int>(available); ++n) {
    const double level_alpha =
        q.alpha * (n == q.min_runs ? static_cast<double>(q.min_runs) : 1.0) / static_cast<double>(q.max_runs);
    std::string open;
    std::vector<std::pair<std::string, stats::StabilityVerdict>> verdicts;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      // Judged on the basis the report judges (stats/entry_verdict.h); epochs to target is analysed only when the
      // rule asks for it, where every run of the look logged epochs.
      std::vector<stats::RunCurve> curves, epoch_curves;
      bool with_epochs = rule.basis == stats::kBasisEpochs;
      for (int k = 0; k < n; ++k) {
        curves.push_back(TimeCurveOf(*runs[i][k]));
        with_epochs = with_epochs && HasEpochs(*runs[i][k]);
        if (with_epochs) epoch_curves.push_back(EpochCurveOf(*runs[i][k]));
      }
      stats::EntryStatistics s;
      s.at_target = stats::AnalyzeStability(curves, entries[i].threshold, level_alpha, consecutive);
      if (with_epochs) {
        s.in_epochs = stats::AnalyzeStability(epoch_curves, entries[i].threshold, level_alpha, consecutive);
      }
      const stats::EntryVerdict judged = stats::JudgeEntryStability(s, rule);
      if (judged.verdict.result == "INCONCLUSIVE") open += (open.empty() ? "" : ", ") + entries[i].name;
      verdicts.emplace_back(entries[i].name, judged.verdict);
    }
    ++out.looks;
    out.runs_per_entry = n;
    out.level = 1 - level_alpha;
    out.verdicts = std::move(verdicts);
    const std::string at = fmt::format("at look {} ({} runs per entry, intervals at level {:.4g}%)", out.looks, n,
                                       100 * (1 - level_alpha));
    if (open.empty()) {
      out.stop = true;
      out.result = "every entry judged";
      out.reason = (n < q.max_runs ? "stopped early: " : "stopped at max_runs: ") +
                   std::string("every entry's verdict was settled ") + at;
      return out;
    }
    if (n == q.max_runs) {
      out.stop = true;
      out.result = "max_runs reached";
      out.reason = "stopped at max_runs: still inconclusive " + at + ": " + open;
      return out;
    }
    out.reason = "goes on: inconclusive " + at + ": " + open;
  }
  return out;
}

std::optional<SequentialOutcome> SequentialStabilityOutcome(const std::vector<Entry>& entries,
                                                            const AnalysisSettings& settings) {
  const auto& question = settings.sequential;
  if (!question || !question->stability) return std::nullopt;
  SequentialOutcome outcome = DecideSequentialQuestion(*question, entries, settings.rule);
  if (outcome.looks == 0) return std::nullopt;
  return outcome;
}

std::optional<stats::StabilityVerdict> SequentialVerdictOf(const SequentialOutcome& outcome, const std::string& entry,
                                                           std::size_t counted_runs, const std::string& verdict_at_95) {
  for (const auto& [name, verdict] : outcome.verdicts) {
    if (name != entry) continue;
    stats::StabilityVerdict v = verdict;
    std::string line = fmt::format(
        "sequential study ({}): judged at look {} on its first {} runs with intervals at level {:.4g}%, the level "
        "that keeps the study's overall error at its alpha over all looks",
        outcome.stop ? "stopped" : "goes on", outcome.looks, outcome.runs_per_entry, 100 * outcome.level);
    if (verdict_at_95 != v.result || counted_runs != static_cast<std::size_t>(outcome.runs_per_entry)) {
      line += fmt::format(
          "; the unadjusted 95% intervals on all {} counted runs would read {}, which is not the "
          "study's answer",
          counted_runs, verdict_at_95);
    }
    v.reasons.insert(v.reasons.begin(), line);
    return v;
  }
  return std::nullopt;
}

}  // namespace evalsuite::analysis
