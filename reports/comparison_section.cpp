#include "reports/comparison_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/pair_answer.h"
#include "analysis/sequential_decision.h"
#include "common/error.h"
#include "common/json_number.h"
#include "reports/stats_json.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using analysis::SequentialOutcome;
using nlohmann::json;

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

// A bound as text the way the comparison JSON writes it (BoundJson): "0.85", "inf", "-inf", "undefined".
std::string BoundText(double value, const char* format) {
  if (std::isfinite(value)) return fmt::format(fmt::runtime(format), value);
  if (std::isnan(value)) return "undefined";
  return value > 0 ? "inf" : "-inf";
}

std::string RatioText(const std::optional<stats::MedianRatio>& ratio) {
  if (!ratio) return "-";
  const std::optional<double> value = Finite(ratio->ratio);
  return (value ? fmt::format("{:.2f}", *value) : std::string("not reached")) + " " +
         ComparisonIntervalText(ratio->interval, ratio->withheld);
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
std::string VerdictCell(const ComparePairModel& row) {
  std::string text = row.comparison.verdict;
  for (const std::string& note : row.comparison.notes) text += " Note: " + note + ".";
  if (row.sequential && row.after_look_a + row.after_look_b > 0) {
    text += fmt::format(" Runs recorded after the deciding look, not part of the decision: {} {}, {} {}.",
                        row.after_look_a, row.comparison.a, row.after_look_b, row.comparison.b);
  }
  return text;
}

std::string SequentialValidity(const analysis::SequentialSettings& question) {
  return question.stability
             ? "the intervals of each look are at the level stated, so every verdict holds at overall level 1 - alpha "
               "whenever the study stopped"
             : "the ratio and difference intervals of the sequential pair are repeated confidence intervals at the "
               "stopping look's critical value: valid under this stopping rule, however many looks were taken";
}

}  // namespace

std::string ComparisonIntervalText(const std::optional<stats::Interval>& interval, const std::string& withheld,
                                   const char* format) {
  if (!interval) return withheld.empty() ? std::string("(no interval)") : "(" + withheld + ")";
  return "[" + BoundText(interval->lower, format) + ", " + BoundText(interval->upper, format) + "]";
}

std::string ProbabilityAFasterText(const stats::ImprovementProbability& p) {
  if (!std::isfinite(p.probability)) return "-";
  const std::string text = fmt::format("{:.0f}%", 100 * p.probability);
  if (!p.interval) return text + " " + (p.withheld.empty() ? std::string("(no interval)") : "(" + p.withheld + ")");
  // An unbounded or undefined bound has no percentage (the JSON writes "inf" or null there).
  auto percent = [](double v) { return std::isfinite(v) ? fmt::format("{:.0f}%", 100 * v) : std::string("undefined"); };
  return fmt::format("{} [{}, {}]", text, percent(p.interval->lower), percent(p.interval->upper));
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
            {"p_value", JsonNumber(r.p_value)},
            {"reached_after_horizon", {{"a", r.reached_after_horizon_a}, {"b", r.reached_after_horizon_b}}},
            {"truncated", stats::HorizonTruncationText(r, c.a, c.b).empty()
                              ? json(nullptr)
                              : json(stats::HorizonTruncationText(r, c.a, c.b))}};
  }
  return {{"a", c.a},
          {"b", c.b},
          {"test", c.decided_by == stats::kDecidedByLogRank ? "log-rank (permutation variance)"
                                                            : "Brunner-Munzel (P(A faster) = 1/2)"},
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
          {"brunner_munzel",
           {{"probability_a_faster", JsonNumber(c.brunner_munzel.probability)},
            {"t", c.brunner_munzel.defined ? JsonNumber(c.brunner_munzel.statistic) : json(nullptr)},
            {"p_value", c.brunner_munzel.defined ? JsonNumber(c.brunner_munzel.p_value) : json(nullptr)},
            {"degrees_of_freedom", JsonNumber(c.brunner_munzel.degrees_of_freedom)},
            {"exact_permutation", c.brunner_munzel.exact}}},
          {"tta_ratio", RatioJson(c.tta_ratio)},
          {"epochs_ratio", c.epochs_ratio ? RatioJson(*c.epochs_ratio) : json(nullptr)},
          {"restricted_mean", rmst},
          {"probability_a_faster", ProbabilityAFasterJson(c.probability_a_faster)},
          {"detectable_difference", JsonNumber(c.detectable_difference)},
          {"notes", c.notes}};
}

std::string SequentialMethod(const analysis::SequentialSettings& question) {
  return question.stability
             ? "each look judges every entry at level 1 - alpha_k, alpha_k the increments of the linear spending "
               "function alpha n / max_runs; by the union bound the looks together err with probability at most "
               "alpha (Bonferroni over looks)"
             : "group-sequential log-rank test, Lan-DeMets alpha spending with the O'Brien-Fleming-type function "
               "(Lan and DeMets 1983; Jennison and Turnbull 2000), information fraction n / max_runs, a look after "
               "every block of one run per entry";
}

std::optional<CompareModel> CompareSection(const StabilityReportInput& input) {
  const auto& question = input.settings.sequential;
  const auto pairs = analysis::ComparedPairs(input.settings);
  if (pairs.empty() && !question) return std::nullopt;
  CompareModel section;
  if (question) {
    section.sequential =
        SequentialModel{*question, analysis::DecideSequentialQuestion(*question, input.entries, input.settings.rule)};
  }
  for (const auto& [a, b] : pairs) {
    ComparePairModel pair;
    pair.a = a;
    pair.b = b;
    try {
      const analysis::PairAnswer answer = analysis::AnswerPair(input.entries, input.settings, a, b);
      pair.comparison = answer.comparison;
      pair.sequential = answer.sequential.has_value();
      pair.after_look_a = answer.after_look_a;
      pair.after_look_b = answer.after_look_b;
    } catch (const Error& e) {
      pair.error = e.what();
    }
    section.pairs.push_back(std::move(pair));
  }
  return section;
}

json CompareSectionJson(const CompareModel& compare) {
  json section = {{"pairs", json::array()}, {"sequential", nullptr}};
  if (compare.sequential) {
    const analysis::SequentialSettings& question = compare.sequential->question;
    const SequentialOutcome& outcome = compare.sequential->outcome;
    json history = json::array();
    for (const auto& look : outcome.history) {
      history.push_back({{"runs_per_entry", look.runs_per_entry},
                         {"z", JsonNumber(look.z)},
                         {"critical_z", JsonNumber(look.critical_z)},
                         {"crossed", look.crossed}});
    }
    section["sequential"] = {
        {"question", question.stability ? json("stability") : json::array({question.a, question.b})},
        {"min_runs", question.min_runs},
        {"max_runs", question.max_runs},
        {"alpha", question.alpha},
        {"method", SequentialMethod(question)},
        {"stopped", outcome.stop},
        {"result", outcome.result},
        {"reason", outcome.reason},
        {"looks", outcome.looks},
        {"runs_per_entry", outcome.runs_per_entry},
        {"history", history},
        {"level", question.stability && outcome.looks > 0 ? JsonNumber(outcome.level) : json(nullptr)},
        {"verdicts", SequentialVerdictsJson(outcome)},
        {"validity", SequentialValidity(question)}};
  }
  for (const ComparePairModel& pair : compare.pairs) {
    if (!pair.error.empty()) {
      section["pairs"].push_back({{"a", pair.a}, {"b", pair.b}, {"error", pair.error}});
      continue;
    }
    json c = EntryComparisonJson(pair.comparison);
    c["sequential"] = pair.sequential;
    if (pair.sequential) c["runs_after_look"] = {{"a", pair.after_look_a}, {"b", pair.after_look_b}};
    section["pairs"].push_back(std::move(c));
  }
  return section;
}

ReportTable CompareTable(const CompareModel& compare) {
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
  for (const ComparePairModel& row : compare.pairs) {
    if (!row.error.empty()) {
      table.rows.push_back({row.a, row.b, "-", "not compared: " + row.error, "-", "-", "-", "-", "-"});
      continue;
    }
    const stats::EntryComparison& c = row.comparison;
    std::string rmst_text = "-";
    if (const auto& rmst = c.restricted_mean) {
      const auto& i = rmst->interval;
      const bool truncated = rmst->reached_after_horizon_a + rmst->reached_after_horizon_b > 0;
      rmst_text = fmt::format("{} {} ({}{})", FormatMagnitude(rmst->difference),
                              i ? fmt::format("[{}, {}]", FormatMagnitude(i->lower), FormatMagnitude(i->upper))
                                : ComparisonIntervalText(i, rmst->withheld),
                              FormatMagnitude(rmst->a.horizon),
                              truncated ? fmt::format("; truncates {} / {} runs that reached",
                                                      rmst->reached_after_horizon_a, rmst->reached_after_horizon_b)
                                        : std::string());
    }
    table.rows.push_back({c.a, c.b, fmt::format("{} / {} ({} / {})", c.runs_a, c.runs_b, c.reached_a, c.reached_b),
                          VerdictCell(row), RatioText(c.tta_ratio), RatioText(c.epochs_ratio), rmst_text,
                          fmt::format("{:.2f} ({:.3g})", Finite(c.log_rank.permutation_z).value_or(0),
                                      Finite(c.log_rank.permutation_p_value).value_or(1)),
                          ProbabilityAFasterText(c.probability_a_faster)});
  }
  return table;
}

std::vector<std::string> SequentialLines(const CompareModel& compare) {
  if (!compare.sequential) return {};
  const analysis::SequentialSettings& q = compare.sequential->question;
  const SequentialOutcome& outcome = compare.sequential->outcome;
  const std::string question = q.stability ? "is each entry stable?" : "is " + q.a + " faster than " + q.b + "?";
  // alpha as report.json writes it ("0.05").
  return {fmt::format("Sequential study ({}): {} looks from {} to {} runs per entry at alpha {}.", question,
                      outcome.looks, q.min_runs, q.max_runs, json(q.alpha).dump()),
          "Decision: " + outcome.result + " (" + outcome.reason + ").", "Method: " + SequentialMethod(q) + ".",
          "Validity: " + SequentialValidity(q) + "."};
}

}  // namespace evalsuite::reports
