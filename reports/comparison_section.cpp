#include "reports/comparison_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/pair_answer.h"
#include "analysis/sequential_decision.h"
#include "common/error.h"
#include "common/json_access.h"
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

std::string RatioText(const json& ratio) {
  if (ratio.is_null()) return "-";
  const json& value = Field(ratio, "ratio");
  return (value.is_number() ? fmt::format("{:.2f}", value.get<double>()) : std::string("not reached")) + " " +
         ComparisonIntervalText(Field(ratio, "interval"), Field(ratio, "withheld"));
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
  const auto& question = input.settings.sequential;
  const auto pairs = analysis::ComparedPairs(input.settings);
  if (pairs.empty() && !question) return nullptr;
  json section = {{"pairs", json::array()}, {"sequential", nullptr}};
  std::optional<SequentialOutcome> outcome;
  if (question) {
    outcome = analysis::DecideSequentialQuestion(*question, input.entries, input.settings.rule);
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
      const analysis::PairAnswer answer = analysis::AnswerPair(input.entries, input.settings, a, b);
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
