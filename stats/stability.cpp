#include "stats/stability.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "stats/cov_interval.h"
#include "stats/ert.h"
#include "stats/olympic.h"
#include "stats/proportion.h"

namespace evalsuite::stats {
namespace {

// "6.1%", "10%", "66.7%": one decimal, without a trailing ".0".
std::string Percent(double share, int decimals = 1) {
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

const char* Outcome(bool satisfied) { return satisfied ? "satisfied" : "NOT satisfied"; }

}  // namespace

StabilityStats AnalyzeStability(const std::vector<RunCurve>& runs, double threshold, double alpha) {
  StabilityStats stats;
  stats.threshold = threshold;
  stats.alpha = alpha;
  stats.runs = runs.size();

  std::vector<double> reached_tta;
  std::vector<double> time_spent;
  std::vector<SurvivalObservation> observations;
  for (const RunCurve& run : runs) {
    const std::optional<double> tta = TimeToTarget(run.points, threshold);
    stats.tta.push_back(tta);
    // COCO's ERT counts a successful run until it reached the target (where a TTA benchmark stops it), not the
    // training it did after that for the curve; a failed run counts with all its time.
    time_spent.push_back(tta ? *tta : run.time_spent);
    if (tta) {
      reached_tta.push_back(*tta);
      observations.push_back({*tta, true});
    } else {
      observations.push_back({run.time_spent, false});
    }
  }
  stats.reached = reached_tta.size();
  stats.tta_summary = Summarize(reached_tta);
  if (stats.reached >= 2) {
    const double cov = CoefficientOfVariation(reached_tta);
    if (std::isfinite(cov) && cov >= 0) {
      stats.cov = cov;
      stats.cov_interval = VangelCovInterval(cov, stats.reached, alpha);
    }
  }
  stats.hit_rate = stats.runs == 0 ? 0.0 : static_cast<double>(stats.reached) / static_cast<double>(stats.runs);
  stats.hit_rate_interval = ClopperPearson(stats.reached, stats.runs, alpha);
  stats.olympic_mean = OlympicMean(stats.tta, 1);
  stats.ert = ExpectedRunningTime(time_spent, stats.reached);
  stats.time_to_target = EstimateKaplanMeier(observations, alpha);
  return stats;
}

StabilityVerdict JudgeStability(const StabilityStats& stats, const StabilityRule& rule) {
  StabilityVerdict verdict;
  verdict.stable = true;
  auto add = [&](bool satisfied, const std::string& what) {
    verdict.reasons.push_back(what + ": " + Outcome(satisfied));
    verdict.stable = verdict.stable && satisfied;
  };
  const std::string level = Percent(1 - stats.alpha);

  if (!stats.cov_interval) {
    add(false, "CoV undefined: " + std::to_string(stats.reached) + " run(s) reached the target, at least 2 needed");
  } else if (!std::isfinite(stats.cov_interval->upper)) {
    add(false, "CoV " + level + " upper bound unbounded > " + Percent(rule.max_cov_upper));
  } else {
    const double upper = stats.cov_interval->upper;
    const bool ok = upper <= rule.max_cov_upper;
    const auto [value, limit] = PercentPair(upper, rule.max_cov_upper);
    add(ok, "CoV " + level + " upper bound " + value + (ok ? " <= " : " > ") + limit);
  }

  const std::string fraction = std::to_string(stats.reached) + "/" + std::to_string(stats.runs);
  if (stats.runs == 0) {
    add(false, "hit rate 0/0 (no runs) < " + Percent(rule.min_hit_rate));
  } else {
    // Compare counts, not rounded shares: 9/10 against 90% is met.
    const bool ok =
        static_cast<double>(stats.reached) >= rule.min_hit_rate * static_cast<double>(stats.runs) * (1 - 1e-12);
    const auto [value, limit] = PercentPair(stats.hit_rate, rule.min_hit_rate);
    add(ok, "hit rate " + fraction + " = " + value + (ok ? " >= " : " < ") + limit);
  }

  const bool enough = stats.reached >= rule.min_reached;
  add(enough, "runs reaching the target " + std::to_string(stats.reached) + (enough ? " >= " : " < ") +
                  std::to_string(rule.min_reached));

  if (verdict.stable) {
    verdict.result = "STABLE";
    return verdict;
  }
  // Not stable: shown so by an interval, or only not shown stable by too few runs?
  const bool cov_shown_high = stats.cov_interval && stats.cov_interval->lower > rule.max_cov_upper;
  const bool hit_rate_shown_low = stats.runs > 0 && stats.hit_rate_interval.upper < rule.min_hit_rate;
  if (cov_shown_high || hit_rate_shown_low) {
    verdict.result = "NOT STABLE";
    if (cov_shown_high) {
      verdict.reasons.push_back("shown: even the CoV's " + level + " lower bound " +
                                Percent(stats.cov_interval->lower) + " is above " + Percent(rule.max_cov_upper));
    }
    if (hit_rate_shown_low) {
      verdict.reasons.push_back("shown: even the hit rate's " + level + " upper bound " +
                                Percent(stats.hit_rate_interval.upper) + " is below " + Percent(rule.min_hit_rate));
    }
    return verdict;
  }
  verdict.result = "INCONCLUSIVE";
  if (stats.cov && *stats.cov < rule.max_cov_upper) {
    constexpr std::size_t kMostRuns = 1000;
    for (std::size_t n = std::max<std::size_t>(stats.reached + 1, 2); n <= kMostRuns; ++n) {
      if (VangelCovInterval(*stats.cov, n, stats.alpha).upper <= rule.max_cov_upper) {
        verdict.reached_runs_needed = n;
        break;
      }
    }
  }
  if (verdict.reached_runs_needed) {
    verdict.reasons.push_back("inconclusive: too few runs to tell; if the CoV stayed at " + Percent(*stats.cov) +
                              ", about " + std::to_string(*verdict.reached_runs_needed) +
                              " runs reaching the target would bring its upper bound within " +
                              Percent(rule.max_cov_upper));
  } else if (stats.cov) {
    verdict.reasons.push_back("inconclusive: too few runs to tell; the CoV itself (" + Percent(*stats.cov) +
                              ") is not below " + Percent(rule.max_cov_upper) +
                              ", so more runs would more likely show it unstable");
  } else {
    verdict.reasons.push_back("inconclusive: too few runs to tell");
  }
  return verdict;
}

}  // namespace evalsuite::stats
