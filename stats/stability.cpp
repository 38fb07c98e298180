#include "stats/stability.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "stats/cov_interval.h"
#include "stats/curve.h"
#include "stats/ert.h"
#include "stats/olympic.h"
#include "stats/proportion.h"

namespace evalsuite::stats {
namespace {

// "6.13%", "10%", "66.7%", "0.213%": three significant digits (one decimal at least), without trailing zeros.
std::string Percent(double share, int decimals = 1) {
  // At least three significant digits below 10% (issue 50: a CoV of 0.213% printed as "0.2%").
  const double percent = std::abs(share * 100);
  if (percent > 0 && std::isfinite(percent)) {
    decimals = std::max(decimals, std::min(12, 2 - static_cast<int>(std::floor(std::log10(percent)))));
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, share * 100);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') {
      text.pop_back();
    }
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  return text + "%";
}

// A value and the limit it is compared with, with enough decimals that a difference shows
// (never "10% > 10%").
std::pair<std::string, std::string> PercentPair(double value, double limit) {
  int decimals = 1;
  while (decimals < 6 && value != limit && Percent(value, decimals) == Percent(limit, decimals)) {
    ++decimals;
  }
  return {Percent(value, decimals), Percent(limit, decimals)};
}

}  // namespace

StabilityStats AnalyzeStability(const std::vector<RunCurve>& runs, double threshold, double alpha,
                                std::size_t consecutive) {
  StabilityStats stats;
  stats.threshold = threshold;
  stats.alpha = alpha;
  stats.runs = runs.size();
  stats.consecutive = std::max<std::size_t>(consecutive, 1);

  std::vector<double> reached_tta;
  std::vector<double> time_spent;
  std::vector<double> resolutions;
  std::vector<SurvivalObservation> observations;
  for (const RunCurve& run : runs) {
    const std::optional<double> tta = TimeToTarget(run.points, threshold, stats.consecutive);
    stats.tta.push_back(tta);
    // COCO's ERT counts a successful run until it reached the target (where a TTA benchmark stops it), not the
    // training it did after that for the curve; a failed run counts with all its time.
    time_spent.push_back(tta ? *tta : run.time_spent);
    if (tta) {
      reached_tta.push_back(*tta);
      observations.push_back({*tta, true});
      resolutions.push_back(*CrossingResolution(run.points, threshold, stats.consecutive));
    } else {
      observations.push_back({run.time_spent, false});
    }
  }
  stats.reached = reached_tta.size();
  stats.tta_summary = Summarize(reached_tta);
  if (!resolutions.empty()) stats.resolution = Summarize(resolutions).median;
  if (stats.reached >= 2) {
    const double cov = CoefficientOfVariation(reached_tta);
    if (std::isfinite(cov) && cov >= 0) {
      stats.cov = cov;
      stats.cov_interval = VangelCovInterval(cov, stats.reached, alpha);
    }
    stats.grid_coarser_than_spread =
        stats.resolution && *stats.resolution >= stats.tta_summary.max - stats.tta_summary.min;
  }
  stats.hit_rate = stats.runs == 0 ? 0.0 : static_cast<double>(stats.reached) / static_cast<double>(stats.runs);
  stats.hit_rate_interval = ClopperPearson(stats.reached, stats.runs, alpha);
  stats.olympic_mean = OlympicMean(stats.tta, 1);
  stats.ert = ExpectedRunningTime(time_spent, stats.reached);
  stats.time_to_target = EstimateKaplanMeier(observations, alpha);
  return stats;
}

namespace {

constexpr const char* kSatisfied = "satisfied";
constexpr const char* kNotSatisfied = "NOT satisfied";
constexpr const char* kCantTell = "can't tell";

// The CoV's interval would show it low, but the evaluation grid made it (identical TTAs, or TTAs no further apart
// than the evaluations where they crossed): it measures the grid, not the runs.
bool IntervalIsTheGrids(const StabilityStats& stats, const StabilityRule& rule) {
  return stats.cov_interval && stats.cov_interval->upper <= rule.max_cov_upper &&
         ((stats.cov && *stats.cov == 0) || stats.grid_coarser_than_spread);
}

StabilityCriterion JudgeCov(const StabilityStats& stats, const StabilityRule& rule, const std::string& level) {
  StabilityCriterion c{"cov", kCantTell, ""};
  const std::string limit = Percent(rule.max_cov_upper);
  if (!stats.cov_interval) {
    c.detail = "CoV undefined: " + std::to_string(stats.reached) + " run(s) reached the target, at least 2 needed";
    return c;
  }
  const Interval& interval = *stats.cov_interval;
  if (interval.lower > rule.max_cov_upper) {
    const auto [value, shown_limit] = PercentPair(interval.lower, rule.max_cov_upper);
    c.outcome = kNotSatisfied;
    c.detail = "CoV " + level + " lower bound " + value + " > " + shown_limit + " (Vangel interval)";
    return c;
  }
  if (!std::isfinite(interval.upper)) {
    c.detail = "CoV " + level + " upper bound unbounded, lower bound " + Percent(interval.lower) + " <= " + limit;
    return c;
  }
  const auto [value, shown_limit] = PercentPair(interval.upper, rule.max_cov_upper);
  // An interval the evaluation grid made (identical TTAs, or TTAs no further apart than the evaluations where they
  // crossed) measures the grid, not the runs: it can't show the CoV low.
  if (IntervalIsTheGrids(stats, rule)) {
    c.detail = "CoV " + level + " interval [" + Percent(interval.lower) + ", " + value +
               "] is degenerate: the evaluation grid is coarser than the spread of the TTAs, so the runs can't be "
               "told apart";
    return c;
  }
  if (interval.upper <= rule.max_cov_upper) {
    c.outcome = kSatisfied;
    c.detail = "CoV " + level + " upper bound " + value + " <= " + shown_limit;
    return c;
  }
  c.detail = "CoV " + level + " upper bound " + value + " > " + shown_limit + ", but lower bound " +
             Percent(interval.lower) + " <= " + limit;
  return c;
}

StabilityCriterion JudgeHitRate(const StabilityStats& stats, const StabilityRule& rule, const std::string& level) {
  StabilityCriterion c{"hit_rate", kCantTell, ""};
  const std::string fraction = std::to_string(stats.reached) + "/" + std::to_string(stats.runs);
  if (stats.runs == 0) {
    c.detail = "hit rate 0/0 (no runs)";
    return c;
  }
  // Compare counts, not rounded shares: 9/10 against 90% is met.
  const bool point_ok =
      static_cast<double>(stats.reached) >= rule.min_hit_rate * static_cast<double>(stats.runs) * (1 - 1e-12);
  const auto [value, limit] = PercentPair(stats.hit_rate, rule.min_hit_rate);
  const std::string interval = level + " interval [" + Percent(stats.hit_rate_interval.lower) + ", " +
                               Percent(stats.hit_rate_interval.upper) + "]";
  if (point_ok) {
    c.outcome = kSatisfied;
    c.detail =
        "hit rate " + fraction + " = " + value + " >= " + limit + " (judged by its point estimate; " + interval + ")";
    return c;
  }
  const auto [upper, upper_limit] = PercentPair(stats.hit_rate_interval.upper, rule.min_hit_rate);
  if (stats.hit_rate_interval.upper < rule.min_hit_rate) {
    c.outcome = kNotSatisfied;
    c.detail = "hit rate " + fraction + " = " + value + " < " + limit + ", and its " + level + " upper bound " + upper +
               " < " + upper_limit;
    return c;
  }
  c.detail = "hit rate " + fraction + " = " + value + " < " + limit + ", but its " + level + " upper bound " + upper +
             " >= " + upper_limit;
  return c;
}

}  // namespace

StabilityVerdict JudgeStability(const StabilityStats& stats, const StabilityRule& rule) {
  StabilityVerdict verdict;
  verdict.assurance = rule.assurance;
  const std::string level = Percent(1 - stats.alpha);
  verdict.criteria.push_back(JudgeCov(stats, rule, level));
  verdict.criteria.push_back(JudgeHitRate(stats, rule, level));
  const bool enough = stats.reached >= rule.min_reached;
  verdict.criteria.push_back({"min_reached", enough ? kSatisfied : kCantTell,
                              "runs reaching the target " + std::to_string(stats.reached) + (enough ? " >= " : " < ") +
                                  std::to_string(rule.min_reached)});

  bool any_broken = false, any_open = false;
  for (const StabilityCriterion& c : verdict.criteria) {
    verdict.reasons.push_back(c.detail + ": " + c.outcome);
    any_broken = any_broken || c.outcome == kNotSatisfied;
    any_open = any_open || c.outcome == kCantTell;
  }
  verdict.stable = !any_broken && !any_open;
  verdict.result = any_broken ? "NOT STABLE" : any_open ? "INCONCLUSIVE" : "STABLE";

  // Notes: a degenerate interval or a grid coarser than the runs' spread qualifies whatever the CoV says.
  if (stats.cov && *stats.cov == 0) {
    verdict.reasons.push_back("note: all " + std::to_string(stats.reached) +
                              " TTAs are identical, so the CoV's interval [0%, 0%] is degenerate: it says only "
                              "that the evaluation grid could not tell the runs apart, not that the CoV is 0");
  } else if (stats.grid_coarser_than_spread) {
    char numbers[160];
    std::snprintf(numbers, sizeof numbers,
                  "(%.3g apart in the run's time unit) is as coarse as the spread of "
                  "their TTAs (range %.3g)",
                  *stats.resolution, stats.tta_summary.max - stats.tta_summary.min);
    verdict.reasons.push_back("note: the evaluation grid where runs crossed the target " + std::string(numbers) +
                              ", so the CoV measures the grid as much as the runs");
  }
  if (verdict.result != "INCONCLUSIVE") return verdict;

  // What blocks the verdict, and what more runs would do.
  const StabilityCriterion& cov = verdict.criteria[0];
  const StabilityCriterion& hit_rate = verdict.criteria[1];
  if (cov.outcome == kSatisfied && hit_rate.outcome == kCantTell) {
    verdict.reasons.push_back(
        "inconclusive: the hit rate, not the CoV, blocks the verdict: " + std::to_string(stats.reached) + " of " +
        std::to_string(stats.runs) + " runs reached the target, below " + Percent(rule.min_hit_rate) +
        ", and so few runs cannot show the true rate below it; more runs tell");
    return verdict;
  }
  if (cov.outcome != kCantTell) return verdict;
  if (IntervalIsTheGrids(stats, rule)) {
    // Advice a reader of published logs can use: they cannot be evaluated more often after the fact, but they do
    // bound the spread. Each run crossed within one grid step of the others, so the true times to target lie within
    // the observed range plus one step.
    std::string bound;
    if (stats.resolution && stats.tta_summary.median > 0) {
      const double spread = *stats.resolution + (stats.tta_summary.max - stats.tta_summary.min);
      char numbers[200];
      std::snprintf(numbers, sizeof numbers, "%.3g in the run's time unit (evaluations %.3g apart, TTAs ranging %.3g)",
                    spread, *stats.resolution, stats.tta_summary.max - stats.tta_summary.min);
      bound = std::string(", so the true times to target spread over at most ") + numbers + ", " +
              Percent(spread / stats.tta_summary.median) + " of the median TTA";
    }
    verdict.reasons.push_back(
        "inconclusive: the evaluation grid, not the number of runs, blocks the verdict: the runs crossed the target "
        "between the same evaluations, so their TTAs can't differ by less than the grid. What these logs let an "
        "auditor conclude: every run reached the target within one evaluation interval of the others" +
        bound +
        "; a CoV below that cannot be shown from them, and a published log cannot be evaluated more often after the "
        "fact (runs of your own can: a study's evals_per_epoch)");
    return verdict;
  }
  if (stats.cov && *stats.cov > 0 && *stats.cov < rule.max_cov_upper) {
    verdict.reached_runs_needed = RunsForCovAssurance(*stats.cov, rule.max_cov_upper, rule.assurance, stats.alpha);
    verdict.reached_runs_even_odds = RunsForCovAssurance(*stats.cov, rule.max_cov_upper, 0.5, stats.alpha);
  }
  std::string hit_rate_too;
  if (hit_rate.outcome == kCantTell) {
    hit_rate_too = "; the hit rate (" + std::to_string(stats.reached) + "/" + std::to_string(stats.runs) +
                   ") is also below " + Percent(rule.min_hit_rate) + ", and more runs are what would tell";
  }
  if (verdict.reached_runs_needed) {
    std::string even_odds;
    if (verdict.reached_runs_even_odds) {
      even_odds = " (" + std::to_string(*verdict.reached_runs_even_odds) + " would do it only half the time)";
    }
    verdict.reasons.push_back(
        "inconclusive: too few runs to tell; if the true CoV is the measured " + Percent(*stats.cov) + ", " +
        std::to_string(*verdict.reached_runs_needed) + " runs reaching the target bring the CoV's upper bound within " +
        Percent(rule.max_cov_upper) + " with " + Percent(rule.assurance, 0) + " probability" + even_odds +
        " (from the sample CoV's sampling distribution, McKay's chi-square approximation)" + hit_rate_too);
  } else if (stats.cov && *stats.cov > 0) {
    verdict.reasons.push_back("inconclusive: too few runs to tell; the CoV itself (" + Percent(*stats.cov) +
                              ") is not below " + Percent(rule.max_cov_upper) +
                              ", so more runs would more likely show it unstable" + hit_rate_too);
  } else {
    verdict.reasons.push_back("inconclusive: too few runs to tell" + hit_rate_too);
  }
  return verdict;
}

}  // namespace evalsuite::stats
