#include "reports/comparison_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "evalsuite/common/error.h"
#include "reports/counted_runs.h"
#include "reports/json_access.h"
#include "reports/json_number.h"
#include "reports/stats_json.h"
#include "reports/value_format.h"
#include "stats/curve.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

const EntryInput& FindEntry(const std::vector<EntryInput>& entries, const std::string& name) {
  for (const EntryInput& e : entries) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const EntryInput& e : entries) names += (names.empty() ? "" : ", ") + e.name;
  throw UsageError(name, "no such entry (entries: " + names + ")");
}

// The counted runs with indices 0, 1, 2, ... without a gap: what a look at n runs per entry may use.
std::vector<const RunInput*> LeadingCountedRuns(const EntryInput& entry) {
  std::map<int, const RunInput*> by_index;
  for (const RunInput& run : entry.runs) {
    if (CountsInStatistics(run, entry.source)) by_index.emplace(run.index, &run);
  }
  std::vector<const RunInput*> leading;
  for (int i = 0; by_index.count(i); ++i) leading.push_back(by_index[i]);
  return leading;
}

stats::SurvivalObservation Observe(const stats::RunCurve& curve, double threshold, std::size_t consecutive) {
  if (auto t = stats::TimeToTarget(curve.points, threshold, consecutive)) return {*t, true};
  return {curve.time_spent, false};
}

// A bound as the comparison JSON writes it: a number, or "inf" / "-inf" for an unbounded side (JSON has no
// infinity; null would not say which), so text and JSON print the same interval.
json BoundJson(double value) {
  if (std::isfinite(value)) return value;
  if (std::isnan(value)) return nullptr;
  return value > 0 ? "inf" : "-inf";
}

json BoundedIntervalJson(const std::optional<stats::Interval>& interval) {
  if (!interval) return nullptr;
  return {{"lower", BoundJson(interval->lower)}, {"upper", BoundJson(interval->upper)}};
}

json RatioJson(const stats::MedianRatio& r) {
  return {{"median_a", JsonNumber(r.median_a)},
          {"median_b", JsonNumber(r.median_b)},
          {"ratio", JsonNumber(r.ratio)},
          {"interval", BoundedIntervalJson(r.interval)},
          {"withheld", r.withheld.empty() ? json(nullptr) : json(r.withheld)},
          {"resamples", r.resamples},
          {"undefined_resamples", r.undefined_resamples},
          {"seed", r.seed}};
}

std::string RatioText(const json& ratio) {
  if (ratio.is_null()) return "-";
  const json& value = Field(ratio, "ratio");
  return (value.is_number() ? fmt::format("{:.2f}", value.get<double>()) : std::string("not reached")) + " " +
         ComparisonIntervalText(Field(ratio, "interval"), Field(ratio, "withheld"));
}

// The runs of `entry` its first `n` leading counted runs as observations (a sequential look's runs).
stats::ComparedRuns LeadingComparedRuns(const EntryInput& entry, std::size_t consecutive, std::size_t n) {
  stats::ComparedRuns runs;
  runs.name = entry.name;
  bool epochs_known = true;
  const std::vector<const RunInput*> leading = LeadingCountedRuns(entry);
  for (std::size_t i = 0; i < n && i < leading.size(); ++i) {
    runs.tta.push_back(Observe(ToRunCurve(*leading[i]), entry.threshold, consecutive));
    epochs_known = epochs_known && HasEpochs(*leading[i]);
    if (epochs_known) runs.epochs.push_back(Observe(ToEpochCurve(*leading[i]), entry.threshold, consecutive));
  }
  if (!epochs_known) runs.epochs.clear();
  return runs;
}

// Why no look could be taken: the first entry whose leading counted runs stop short of the first look, and what
// its next run was ("goes on" would promise a look that the recorded runs cannot give).
std::string WhyNoLook(const std::vector<const EntryInput*>& entries, int min_runs) {
  for (const EntryInput* e : entries) {
    const std::size_t leading = LeadingCountedRuns(*e).size();
    if (leading >= static_cast<std::size_t>(min_runs)) continue;
    const RunInput* blocking = nullptr;
    for (const RunInput& run : e->runs) {
      if (run.index == static_cast<int>(leading)) blocking = &run;
    }
    if (e->runs.empty()) {
      return fmt::format("no look yet: the first look needs {} runs of every entry, and {} has no run recorded",
                         min_runs, e->name);
    }
    if (blocking) {
      std::string cause = blocking->error;
      if (cause.rfind("did not run: ", 0) == 0) cause = cause.substr(13);
      if (cause.size() > 160) cause = cause.substr(0, 157) + "...";
      return fmt::format(
          "cannot look: the first look needs runs 0 to {} of every entry to count, and {}'s run {} does not count "
          "({}{}); {} of its {} recorded runs count",
          min_runs - 1, e->name, leading, blocking->status == "did_not_run" ? "it did not run" : blocking->status,
          cause.empty() ? "" : ": " + cause, leading, e->runs.size());
    }
    return fmt::format("no look yet: the first look needs {} runs of every entry, and {} has {} so far", min_runs,
                       e->name, leading);
  }
  return "goes on: the first look comes at " + std::to_string(min_runs) + " runs per entry";
}

json SequentialVerdictsJson(const SequentialOutcome& outcome) {
  json verdicts = json::object();
  for (const auto& [name, verdict] : outcome.verdicts) verdicts[name] = verdict.result;
  return verdicts;
}

json ProbabilityAFasterJson(const stats::ImprovementProbability& p) {
  return {{"probability", JsonNumber(p.probability)},
          {"interval", BoundedIntervalJson(p.interval)},
          {"withheld", p.withheld.empty() ? json(nullptr) : json(p.withheld)},
          {"method", "Newcombe 2006 method 5, t quantile at m + n - 2 df"}};
}

// The verdict, then each note on an effect size pointing elsewhere, then the runs after a sequential look.
std::string VerdictCell(const json& row) {
  std::string text = StringOf(Field(row, "verdict"));
  for (const json& note : ArrayOf(Field(row, "notes"))) text += " Note: " + StringOf(note) + ".";
  const json& after = Field(row, "runs_after_look");
  const auto after_a = NumberOf(Field(after, "a")).value_or(0), after_b = NumberOf(Field(after, "b")).value_or(0);
  if (after_a + after_b > 0) {
    text += fmt::format(" Runs recorded after the deciding look, not part of the decision: {} {}, {} {}.", after_a,
                        StringOf(Field(row, "a")), after_b, StringOf(Field(row, "b")));
  }
  return text;
}

}  // namespace

stats::ComparedRuns ComparedRunsOf(const EntryInput& entry, std::size_t consecutive) {
  stats::ComparedRuns runs;
  runs.name = entry.name;
  bool epochs_known = true;
  std::vector<const RunInput*> counted;
  for (const RunInput& run : entry.runs) {
    if (CountsInStatistics(run, entry.source)) counted.push_back(&run);
  }
  std::stable_sort(counted.begin(), counted.end(),
                   [](const RunInput* x, const RunInput* y) { return x->index < y->index; });
  for (const RunInput* run : counted) {
    runs.tta.push_back(Observe(ToRunCurve(*run), entry.threshold, consecutive));
    if (HasEpochs(*run) && epochs_known) {
      runs.epochs.push_back(Observe(ToEpochCurve(*run), entry.threshold, consecutive));
    } else {
      epochs_known = false;
    }
  }
  if (!epochs_known) runs.epochs.clear();
  return runs;
}

std::optional<SequentialQuestion> SequentialQuestionOf(const json& plan) {
  const json& s = Field(plan, "sequential");
  if (!s.is_object()) return std::nullopt;
  SequentialQuestion q;
  q.min_runs = static_cast<int>(NumberOf(Field(s, "min_runs")).value_or(0));
  q.max_runs = static_cast<int>(NumberOf(Field(s, "max_runs")).value_or(0));
  q.alpha = NumberOf(Field(s, "alpha")).value_or(0.05);
  const json& question = Field(s, "question");
  if (question.is_array() && question.size() == 2 && question[0].is_string() && question[1].is_string()) {
    q.a = question[0].get<std::string>();
    q.b = question[1].get<std::string>();
  } else {
    q.stability = true;
  }
  if (q.min_runs < 1 || q.max_runs < q.min_runs) return std::nullopt;
  return q;
}

std::vector<std::pair<std::string, std::string>> ComparePairsOf(const json& plan) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const json& pair : ArrayOf(Field(plan, "compare"))) {
    if (pair.is_array() && pair.size() == 2 && pair[0].is_string() && pair[1].is_string()) {
      pairs.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    }
  }
  if (auto q = SequentialQuestionOf(plan); q && !q->stability) {
    if (std::find(pairs.begin(), pairs.end(), std::make_pair(q->a, q->b)) == pairs.end())
      pairs.emplace_back(q->a, q->b);
  }
  return pairs;
}

SequentialOutcome DecideSequentialQuestion(const SequentialQuestion& q, const std::vector<EntryInput>& entries,
                                           const stats::StabilityRule& rule) {
  const std::size_t consecutive = rule.consecutive_evaluations;
  SequentialOutcome out;
  if (!q.stability) {
    auto leading = [&](const std::string& name) {
      const EntryInput& entry = FindEntry(entries, name);
      std::vector<stats::SurvivalObservation> obs;
      for (const RunInput* run : LeadingCountedRuns(entry)) {
        obs.push_back(Observe(ToRunCurve(*run), entry.threshold, consecutive));
      }
      return obs;
    };
    const stats::SequentialComparisonDesign design(q.min_runs, q.max_runs, q.alpha);
    const stats::SequentialDecision d = design.Decide(leading(q.a), leading(q.b));
    out.stop = d.stop;
    out.result = d.result == "A faster" ? q.a + " faster" : d.result == "B faster" ? q.b + " faster" : d.result;
    out.reason = d.looks.empty() ? WhyNoLook({&FindEntry(entries, q.a), &FindEntry(entries, q.b)}, q.min_runs)
                                 : d.reason;
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
  std::vector<std::vector<const RunInput*>> runs;
  for (const EntryInput& e : entries) {
    runs.push_back(LeadingCountedRuns(e));
    available = std::min(available, runs.back().size());
  }
  if (entries.empty()) available = 0;
  std::vector<const EntryInput*> all;
  for (const EntryInput& e : entries) all.push_back(&e);
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
        curves.push_back(ToRunCurve(*runs[i][k]));
        with_epochs = with_epochs && HasEpochs(*runs[i][k]);
        if (with_epochs) epoch_curves.push_back(ToEpochCurve(*runs[i][k]));
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

std::optional<SequentialOutcome> SequentialStabilityOutcome(const StabilityReportInput& input) {
  const auto question = SequentialQuestionOf(input.plan);
  if (!question || !question->stability) return std::nullopt;
  SequentialOutcome outcome = DecideSequentialQuestion(*question, input.entries, input.rule);
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
      line += fmt::format("; the unadjusted 95% intervals on all {} counted runs would read {}, which is not the "
                          "study's answer",
                          counted_runs, verdict_at_95);
    }
    v.reasons.insert(v.reasons.begin(), line);
    return v;
  }
  return std::nullopt;
}

stats::EntryComparison CompareNamedEntries(const std::vector<EntryInput>& entries, const std::string& a,
                                           const std::string& b, std::size_t consecutive,
                                           const stats::ComparisonOptions& options) {
  const EntryInput& ea = FindEntry(entries, a);
  const EntryInput& eb = FindEntry(entries, b);
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

PairAnswer AnswerPair(const StabilityReportInput& input, const std::string& a, const std::string& b,
                      const stats::ComparisonOptions& options) {
  PairAnswer answer;
  const std::size_t consecutive = input.rule.consecutive_evaluations;
  const auto question = SequentialQuestionOf(input.plan);
  const bool sequential_pair =
      question && !question->stability &&
      ((question->a == a && question->b == b) || (question->a == b && question->b == a));
  if (!sequential_pair) {
    answer.comparison = CompareNamedEntries(input.entries, a, b, consecutive, options);
    return answer;
  }
  answer.sequential = DecideSequentialQuestion(*question, input.entries, input.rule);
  const SequentialOutcome& outcome = *answer.sequential;
  stats::ComparisonOptions look = options;
  look.alpha = question->alpha;
  if (outcome.looks == 0) {
    // No look taken: nothing was tested. The runs there are are described at the first look's boundary.
    look.critical_z = stats::SequentialComparisonDesign(question->min_runs, question->max_runs, question->alpha)
                          .CriticalZ(question->min_runs);
    answer.comparison = CompareNamedEntries(input.entries, a, b, consecutive, look);
    answer.comparison.result = "no decision yet";
    answer.comparison.verdict = "no decision yet (sequential study: " + outcome.reason + ")";
    return answer;
  }
  look.critical_z = outcome.critical_z;
  const EntryInput& ea = FindEntry(input.entries, a);
  const EntryInput& eb = FindEntry(input.entries, b);
  CompareNamedEntries(input.entries, a, b, consecutive, look);  // the same checks (metric, target, unit) as any pair
  const auto n = static_cast<std::size_t>(outcome.runs_per_entry);
  answer.comparison = stats::CompareEntries(LeadingComparedRuns(ea, consecutive, n),
                                            LeadingComparedRuns(eb, consecutive, n), look);
  answer.after_look_a = ComparedRunsOf(ea, consecutive).tta.size() - n;
  answer.after_look_b = ComparedRunsOf(eb, consecutive).tta.size() - n;
  const std::string when = fmt::format("sequential study, look {} at {} runs per entry: ", outcome.looks, n);
  if (!outcome.stop) {
    answer.comparison.result = "no decision yet";
    answer.comparison.verdict = "no decision yet (" + when + outcome.reason + "); at that look: " +
                                answer.comparison.verdict;
  } else {
    answer.comparison.verdict = when + answer.comparison.verdict;
  }
  return answer;
}

std::string ComparisonIntervalText(const json& interval, const json& withheld, const char* format) {
  if (!interval.is_object()) {
    return withheld.is_string() ? "(" + withheld.get<std::string>() + ")" : std::string("(no interval)");
  }
  auto bound = [format](const json& v) {
    if (v.is_number()) return fmt::format(fmt::runtime(format), v.get<double>());
    return v.is_string() ? v.get<std::string>() : std::string("undefined");
  };
  return "[" + bound(Field(interval, "lower")) + ", " + bound(Field(interval, "upper")) + "]";
}

std::string ProbabilityAFasterText(const json& p) {
  const auto value = NumberOf(Field(p, "probability"));
  if (!value) return "-";
  const json& interval = Field(p, "interval");
  const std::string text = fmt::format("{:.0f}%", 100 * *value);
  if (!interval.is_object()) return text + " " + ComparisonIntervalText(interval, Field(p, "withheld"));
  auto percent = [](const json& v) {
    return v.is_number() ? fmt::format("{:.0f}%", 100 * v.get<double>()) : std::string("undefined");
  };
  return fmt::format("{} [{}, {}]", text, percent(Field(interval, "lower")), percent(Field(interval, "upper")));
}

json EntryComparisonJson(const stats::EntryComparison& c) {
  json rmst = nullptr;
  if (c.restricted_mean) {
    const auto& r = *c.restricted_mean;
    rmst = {{"horizon", JsonNumber(r.a.horizon)},
            {"mean_a", JsonNumber(r.a.mean)},
            {"se_a", JsonNumber(r.a.standard_error)},
            {"mean_b", JsonNumber(r.b.mean)},
            {"se_b", JsonNumber(r.b.standard_error)},
            {"difference", JsonNumber(r.difference)},
            {"interval", BoundedIntervalJson(r.interval)},
            {"withheld", r.withheld.empty() ? json(nullptr) : json(r.withheld)},
            {"degrees_of_freedom", JsonNumber(r.degrees_of_freedom)},
            {"p_value", JsonNumber(r.p_value)}};
  }
  return {{"a", c.a},
          {"b", c.b},
          {"test", "log-rank (permutation variance)"},
          {"result", c.result == "A faster"   ? c.a + " faster"
                     : c.result == "B faster" ? c.b + " faster"
                                              : c.result},
          {"verdict", c.verdict},
          {"alpha", c.alpha},
          {"interval_level", JsonNumber(c.interval_level)},
          {"critical_z", JsonNumber(c.critical_z)},
          {"runs_a", c.runs_a},
          {"runs_b", c.runs_b},
          {"reached_a", c.reached_a},
          {"reached_b", c.reached_b},
          {"log_rank",
           {{"z", JsonNumber(c.log_rank.permutation_z)},
            {"p_value", JsonNumber(c.log_rank.permutation_p_value)},
            {"observed_a", JsonNumber(c.log_rank.observed_a)},
            {"expected_a", JsonNumber(c.log_rank.expected_a)},
            {"permutation_variance", JsonNumber(c.log_rank.permutation_variance)},
            {"survdiff_chi_square", JsonNumber(c.log_rank.chi_square)},
            {"survdiff_p_value", JsonNumber(c.log_rank.p_value)}}},
          {"tta_ratio", RatioJson(c.tta_ratio)},
          {"epochs_ratio", c.epochs_ratio ? RatioJson(*c.epochs_ratio) : json(nullptr)},
          {"restricted_mean", rmst},
          {"probability_a_faster", ProbabilityAFasterJson(c.probability_a_faster)},
          {"detectable_difference", JsonNumber(c.detectable_difference)},
          {"notes", c.notes}};
}

json CompareSectionJson(const StabilityReportInput& input) {
  const auto question = SequentialQuestionOf(input.plan);
  const auto pairs = ComparePairsOf(input.plan);
  if (pairs.empty() && !question) return nullptr;
  json section = {{"pairs", json::array()}, {"sequential", nullptr}};
  std::optional<SequentialOutcome> outcome;
  if (question) {
    outcome = DecideSequentialQuestion(*question, input.entries, input.rule);
    json history = json::array();
    for (const auto& look : outcome->history) {
      history.push_back({{"runs_per_entry", look.runs_per_entry},
                         {"z", JsonNumber(look.z)},
                         {"critical_z", JsonNumber(look.critical_z)},
                         {"crossed", look.crossed}});
    }
    section["sequential"] = {
        {"question", question->stability ? json("stability") : json::array({question->a, question->b})},
        {"min_runs", question->min_runs},
        {"max_runs", question->max_runs},
        {"alpha", question->alpha},
        {"method", question->stability
                       ? "each look judges every entry at level 1 - alpha_k, alpha_k the increments of the linear "
                         "spending function alpha n / max_runs; by the union bound the looks together err with "
                         "probability at most alpha (Bonferroni over looks)"
                       : "group-sequential log-rank test, Lan-DeMets alpha spending with the O'Brien-Fleming-type "
                         "function (Lan and DeMets 1983; Jennison and Turnbull 2000), information fraction n / "
                         "max_runs, a look after every block of one run per entry"},
        {"stopped", outcome->stop},
        {"result", outcome->result},
        {"reason", outcome->reason},
        {"looks", outcome->looks},
        {"runs_per_entry", outcome->runs_per_entry},
        {"history", history},
        {"level", question->stability && outcome->looks > 0 ? JsonNumber(outcome->level) : json(nullptr)},
        {"verdicts", SequentialVerdictsJson(*outcome)},
        {"validity", question->stability
                         ? "the intervals of each look are at the level stated, so every verdict holds at overall "
                           "level 1 - alpha whenever the study stopped"
                         : "the ratio and difference intervals of the sequential pair are repeated confidence "
                           "intervals at the stopping look's critical value: valid under this stopping rule, "
                           "however many looks were taken"}};
  }
  for (const auto& [a, b] : pairs) {
    try {
      const PairAnswer answer = AnswerPair(input, a, b);
      json c = EntryComparisonJson(answer.comparison);
      c["sequential"] = answer.sequential.has_value();
      if (answer.sequential) {
        c["runs_after_look"] = {{"a", answer.after_look_a}, {"b", answer.after_look_b}};
      }
      section["pairs"].push_back(std::move(c));
    } catch (const Error& e) {
      section["pairs"].push_back({{"a", a}, {"b", b}, {"error", e.what()}});
    }
  }
  return section;
}

ReportTable CompareTable(const json& model) {
  ReportTable table;
  table.header = {"A",
                  "B",
                  "Runs A / B (reached)",
                  "Verdict",
                  "Median TTA ratio A/B [CI]",
                  "Median epochs ratio A/B [CI]",
                  "Restricted mean TTA A - B [CI] (horizon)",
                  "Log-rank z (p)",
                  "P(A faster)"};
  table.numeric = {false, false, true, false, true, true, true, true, true};
  for (const json& row : ArrayOf(Field(Field(model, "compare"), "pairs"))) {
    if (!Field(row, "error").is_null()) {
      table.rows.push_back({StringOf(Field(row, "a")), StringOf(Field(row, "b")), "-",
                            "not compared: " + StringOf(Field(row, "error")), "-", "-", "-", "-", "-"});
      continue;
    }
    const json& rmst = Field(row, "restricted_mean");
    std::string rmst_text = "-";
    if (rmst.is_object()) {
      const json& i = Field(rmst, "interval");
      rmst_text = fmt::format("{} {} ({})", FormatMagnitude(Field(rmst, "difference")),
                              i.is_object() ? fmt::format("[{}, {}]", FormatMagnitude(Field(i, "lower")),
                                                          FormatMagnitude(Field(i, "upper")))
                                            : ComparisonIntervalText(i, Field(rmst, "withheld")),
                              FormatMagnitude(Field(rmst, "horizon")));
    }
    const json& lr = Field(row, "log_rank");
    const json& pi = Field(row, "probability_a_faster");
    table.rows.push_back(
        {StringOf(Field(row, "a")), StringOf(Field(row, "b")),
         fmt::format("{} / {} ({} / {})", StringOf(Field(row, "runs_a")), StringOf(Field(row, "runs_b")),
                     StringOf(Field(row, "reached_a")), StringOf(Field(row, "reached_b"))),
         VerdictCell(row), RatioText(Field(row, "tta_ratio")), RatioText(Field(row, "epochs_ratio")), rmst_text,
         fmt::format("{:.2f} ({:.3g})", NumberOf(Field(lr, "z")).value_or(0),
                     NumberOf(Field(lr, "p_value")).value_or(1)),
         ProbabilityAFasterText(pi)});
  }
  return table;
}

std::vector<std::string> SequentialLines(const json& model) {
  const json& s = Field(Field(model, "compare"), "sequential");
  if (!s.is_object()) return {};
  const json& q = Field(s, "question");
  const std::string question = q.is_array() && q.size() == 2
                                   ? "is " + StringOf(q[0]) + " faster than " + StringOf(q[1]) + "?"
                                   : "is each entry stable?";
  return {fmt::format("Sequential study ({}): {} looks from {} to {} runs per entry at alpha {}.", question,
                      StringOf(Field(s, "looks")), StringOf(Field(s, "min_runs")), StringOf(Field(s, "max_runs")),
                      StringOf(Field(s, "alpha"))),
          "Decision: " + StringOf(Field(s, "result"), "none yet") + " (" + StringOf(Field(s, "reason")) + ").",
          "Method: " + StringOf(Field(s, "method")) + ".", "Validity: " + StringOf(Field(s, "validity")) + "."};
}

}  // namespace evalsuite::reports
