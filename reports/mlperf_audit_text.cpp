#include "reports/mlperf_audit_text.h"

#include <fmt/format.h>

#include <cmath>

namespace evalsuite::reports {
namespace {

using analysis::AuditedSubmission;
using nlohmann::ordered_json;

std::string AuditMethodText(const analysis::AuditReport& report) {
  const analysis::AuditSettings& s = report.settings;
  return fmt::format(
      "method: {} simulated reruns per submission (seed {}). A rerun draws each of the round's runs' convergence "
      "point from the RCP reference runs at the submission's batch size (interpolated between the checker's "
      "neighbours where it interpolates) and its time per epoch (or sample) from the submission's own runs; the "
      "score is their olympic mean, scaled by the RCP checker's normalization of the drawn points. Range: the "
      "{:.0f}% central interval; conv/time: each factor simulated alone, share of the squared widths. Pairs: "
      "P(the faster stays faster), independent reruns of both; named below {:.0f}%. Selection check (evidence, "
      "not an accusation): mean position of the runs' convergence points in the reference and their variance "
      "ratio, each against {} honest draws from the reference, flagged at p < {:.3g} each (alpha {:.3g}, "
      "Bonferroni); false-alarm rate and power on best N of 2N from {} simulated submissions; M: maximum "
      "likelihood under \"the N best of M runs were kept\", 95% likelihood-ratio interval.\n",
      s.rerun.draws, s.rerun.seed, 100 * s.rerun.level, 100 * s.within_noise, s.selection.draws, s.selection.alpha / 2,
      s.selection.alpha, s.selection.honest);
}

std::string AuditRange(const analysis::ScoreRange& r) {
  return fmt::format("{:.4g} [{:.4g}, {:.4g}]", r.median, r.low, r.high);
}

std::string AuditSubmissionLine(std::size_t rank, const AuditedSubmission& a) {
  const analysis::RerunSubmission& s = a.input.submission;
  std::string line = rank > 0 ? fmt::format("  {:>2}. {}\n", rank, s.source) : fmt::format("   -  {}\n", s.source);
  line += "      official ";
  line += s.official_minutes ? fmt::format("{:.4g} min", *s.official_minutes) : std::string("none");
  const analysis::RerunRange& r = a.rerun;
  if (r.computed) {
    line += fmt::format("; rerun {} min ({})", AuditRange(r.range), r.method);
    if (r.convergence_share) {
      line += fmt::format("; convergence {:.0f}% / time per epoch {:.0f}%", 100 * *r.convergence_share,
                          100 * *r.time_share);
    }
    if (r.rcp_fail_share && *r.rcp_fail_share > 0) {
      line += fmt::format("; {:.1f}% of reruns fail the RCP check", 100 * *r.rcp_fail_share);
    }
    line += "\n";
    if (r.doubled) {
      line += fmt::format("      {} runs: 90% range width {:.4g} min; {} runs: {:.4g} min\n", r.runs,
                          r.range.high - r.range.low, 2 * r.runs, r.doubled->high - r.doubled->low);
    }
    if (!r.fallback_reason.empty()) line += "      reference not used: " + r.fallback_reason + "\n";
    if (!r.caveat.empty()) line += "      caveat: " + r.caveat + "\n";
  } else {
    line += "; rerun range not computed: " + r.why_not + "\n";
  }
  for (const std::string& note : a.input.notes) line += "      note: " + note + "\n";
  return line;
}

std::string AuditSelectionLine(const AuditedSubmission& a) {
  const analysis::RerunSubmission& s = a.input.submission;
  if (!a.selection) return fmt::format("  {}: not checked: {}\n", s.source, a.selection_why_not);
  const analysis::SelectionCheck& c = *a.selection;
  std::string line =
      fmt::format("  {}: {} runs, mean position {:.2f} (p {:.3g})", s.source, c.runs, c.mean_position, c.p_fast);
  if (c.variance_ratio) {
    line += fmt::format(", variance ratio {:.3g} (p {:.3g})", *c.variance_ratio, *c.p_spread);
  }
  line += c.flagged ? "; flagged: evidence of selection, not proof" : "; consistent with a random draw";
  line += fmt::format("; false alarms {:.1f}%, power on best N of 2N {:.0f}%", 100 * c.false_alarm_rate,
                      100 * c.power_best_half);
  line += c.m_high ? fmt::format("; ML M {} [{}, {}]\n", c.m_hat, c.m_low, *c.m_high)
                   : fmt::format("; ML M {} [{}, unbounded]\n", c.m_hat, c.m_low);
  return line;
}

ordered_json AuditRangeJson(const analysis::ScoreRange& r) {
  return {{"median", r.median}, {"low", r.low}, {"high", r.high}};
}

template <typename T>
ordered_json AuditOptional(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json AuditSubmissionJson(const AuditedSubmission& a) {
  const analysis::RerunSubmission& s = a.input.submission;
  const analysis::RerunRange& r = a.rerun;
  ordered_json rerun = {{"computed", r.computed}};
  if (r.computed) {
    rerun["method"] = r.method;
    rerun["runs"] = r.runs;
    rerun["median"] = r.range.median;
    rerun["low"] = r.range.low;
    rerun["high"] = r.range.high;
    rerun["convergence_share"] = AuditOptional(r.convergence_share);
    rerun["time_share"] = AuditOptional(r.time_share);
    rerun["rcp_fail_share"] = AuditOptional(r.rcp_fail_share);
    rerun["doubled_runs"] = r.doubled ? AuditRangeJson(*r.doubled) : ordered_json(nullptr);
    rerun["fallback_reason"] = r.fallback_reason.empty() ? ordered_json(nullptr) : ordered_json(r.fallback_reason);
    rerun["caveat"] = r.caveat.empty() ? ordered_json(nullptr) : ordered_json(r.caveat);
  } else {
    rerun["why_not"] = r.why_not;
  }
  ordered_json reference = nullptr;
  if (s.reference) {
    reference = {{"name", s.reference->name},
                 {"how", s.reference->how},
                 {"runs", s.reference->pool.size()},
                 {"mean", s.reference->mean},
                 {"min_passing_mean", s.reference->min_epochs}};
  }
  ordered_json selection = nullptr;
  if (a.selection) {
    const analysis::SelectionCheck& c = *a.selection;
    selection = {{"runs", c.runs},
                 {"positions", c.positions},
                 {"mean_position", c.mean_position},
                 {"p_fast", c.p_fast},
                 {"variance_ratio", AuditOptional(c.variance_ratio)},
                 {"p_spread", AuditOptional(c.p_spread)},
                 {"flagged", c.flagged},
                 {"false_alarm_rate", c.false_alarm_rate},
                 {"power_best_n_of_2n", c.power_best_half},
                 {"ml_m", c.m_hat},
                 {"ml_m_low", c.m_low},
                 {"ml_m_high", AuditOptional(c.m_high)}};
  }
  return {
      {"source", s.source},
      {"system", s.system},
      {"official_minutes", AuditOptional(s.official_minutes)},
      {"runs_required", s.runs_required},
      {"run_minutes", s.run_minutes},
      {"reference", reference},
      {"no_reference", s.no_reference.empty() ? ordered_json(nullptr) : ordered_json(s.no_reference)},
      {"rerun", rerun},
      {"selection", selection},
      {"selection_why_not", a.selection_why_not.empty() ? ordered_json(nullptr) : ordered_json(a.selection_why_not)},
      {"notes", a.input.notes}};
}

}  // namespace

std::string AuditText(const analysis::AuditReport& report) {
  std::string out;
  std::size_t within_noise = 0, flagged = 0, submissions = 0;
  for (const analysis::AuditGroup& g : report.groups) {
    out += fmt::format("{} {} division, ruleset {}: {} submission(s)\n", g.benchmark,
                       g.division.empty() ? std::string("(unknown)") : g.division, g.ruleset,
                       g.ranked.size() + g.unranked.size());
    std::size_t rank = 0;
    for (const AuditedSubmission& a : g.ranked) out += AuditSubmissionLine(++rank, a);
    for (const AuditedSubmission& a : g.unranked) out += AuditSubmissionLine(0, a);
    if (!g.pairs.empty()) out += "  adjacent pairs, P(the faster stays faster on a rerun of both):\n";
    for (const analysis::AdjacentPair& p : g.pairs) {
      if (p.probability) {
        out += fmt::format("    {} < {}: {:.3f}{}\n", p.faster, p.slower, *p.probability,
                           p.within_noise ? "  within noise" : "");
        if (p.within_noise) ++within_noise;
      } else {
        out += fmt::format("    {} < {}: not computed: {}\n", p.faster, p.slower, p.why_not);
      }
    }
    out += "  selection check:\n";
    for (const auto* list : {&g.ranked, &g.unranked}) {
      for (const AuditedSubmission& a : *list) {
        out += AuditSelectionLine(a);
        if (a.selection && a.selection->flagged) ++flagged;
        ++submissions;
      }
    }
    for (const std::string& note : g.notes) out += "  note: " + note + "\n";
    out += "\n";
  }
  out += AuditMethodText(report);
  out += fmt::format(
      "audited {} submission(s) in {} benchmark/division group(s): {} adjacent pair(s) within noise, {} "
      "submission(s) flagged by the selection check (evidence, not proof)\n",
      submissions, report.groups.size(), within_noise, flagged);
  return out;
}

ordered_json AuditJson(const analysis::AuditReport& report) {
  const analysis::AuditSettings& s = report.settings;
  ordered_json groups = ordered_json::array();
  for (const analysis::AuditGroup& g : report.groups) {
    ordered_json subs = ordered_json::array();
    std::size_t rank = 0;
    for (const AuditedSubmission& a : g.ranked) {
      ordered_json j = AuditSubmissionJson(a);
      j["rank"] = ++rank;
      subs.push_back(std::move(j));
    }
    for (const AuditedSubmission& a : g.unranked) {
      ordered_json j = AuditSubmissionJson(a);
      j["rank"] = nullptr;
      subs.push_back(std::move(j));
    }
    ordered_json pairs = ordered_json::array();
    for (const analysis::AdjacentPair& p : g.pairs) {
      pairs.push_back({{"faster", p.faster},
                       {"slower", p.slower},
                       {"probability", AuditOptional(p.probability)},
                       {"within_noise", p.within_noise},
                       {"why_not", p.why_not.empty() ? ordered_json(nullptr) : ordered_json(p.why_not)}});
    }
    groups.push_back({{"ruleset", g.ruleset},
                      {"benchmark", g.benchmark},
                      {"division", g.division},
                      {"submissions", subs},
                      {"pairs", pairs},
                      {"notes", g.notes}});
  }
  return {{"schema_version", 1},
          {"method",
           {{"draws", s.rerun.draws},
            {"seed", s.rerun.seed},
            {"level", s.rerun.level},
            {"within_noise", s.within_noise},
            {"selection_draws", s.selection.draws},
            {"selection_honest", s.selection.honest},
            {"alpha", s.selection.alpha}}},
          {"groups", groups}};
}

}  // namespace evalsuite::reports
