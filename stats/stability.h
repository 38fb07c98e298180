// Per entry and threshold: is TTA stable? Aggregates one entry's runs into the statistics of the DAWNBench
// analysis (Tables 2-3) and more: each run's TTA, summary, CoV with Vangel's interval, hit rate with
// Clopper-Pearson, olympic mean, ERT and the Kaplan-Meier curve. A run that never reaches the target is a
// failure: counted, left out of the TTA summary and CoV, never given an infinite or capped time.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stats/curve.h"
#include "stats/descriptive.h"
#include "stats/interval.h"
#include "stats/survival.h"

namespace evalsuite::stats {

struct RunCurve {
  std::vector<CurvePoint> points;
  double time_spent = 0;  // training time the run used in all (for ERT and censoring), reached or not
};

struct StabilityStats {
  double threshold = 0;
  double alpha = 0.05;  // the intervals below are 100 (1 - alpha)% intervals
  std::size_t runs = 0;
  std::size_t reached = 0;
  std::vector<std::optional<double>> tta;  // one per run, in input order; nullopt = did not reach
  Summary tta_summary;                     // over the runs that reached
  std::optional<double> cov;               // nullopt for fewer than two runs that reached
  std::optional<Interval> cov_interval;
  double hit_rate = 0;
  Interval hit_rate_interval;
  std::optional<double> olympic_mean;
  std::optional<double> ert;
  KaplanMeierCurve time_to_target;  // survival = share of runs not yet at the target
};

// ERT counts a run that reached the target until its TTA and a failed run with its time_spent; Kaplan-Meier has an
// event at the TTA of each run that reached the target and censors the others at their time_spent. The olympic mean
// drops one run each side (MLPerf).
StabilityStats AnalyzeStability(const std::vector<RunCurve>& runs, double threshold, double alpha = 0.05);

// The stated rule a report's verdict uses. Defaults: the CoV interval's upper bound at most 10% (the paper saw
// at most 4.5% for plain entries, up to 12.2% with cyclic LR or progressive resizing), and at least 90% of
// runs reaching the target, with at least 3 runs reaching it.
struct StabilityRule {
  double max_cov_upper = 0.10;
  double min_hit_rate = 0.90;
  std::size_t min_reached = 3;
};

struct StabilityVerdict {
  bool stable = false;
  // "STABLE" (every rule satisfied), "NOT STABLE" (an interval shows a rule broken: the CoV's lower bound above
  // the limit, or the hit rate's upper bound below the minimum) or "INCONCLUSIVE" (neither: too few runs to tell).
  std::string result = "NOT STABLE";
  std::vector<std::string> reasons;  // one line per rule, "satisfied" or why not; then what more runs would do
  // INCONCLUSIVE on the CoV: how many runs reaching the target would bring the CoV's upper bound within the limit
  // if the CoV stayed as measured (nullopt when none would: the CoV itself is at or above the limit).
  std::optional<std::size_t> reached_runs_needed;
};

// Reasons read like "CoV 95% upper bound 6.1% <= 10%: satisfied" or "hit rate 4/5 = 80% < 90%: NOT satisfied";
// stable only when every rule is satisfied.
StabilityVerdict JudgeStability(const StabilityStats& stats, const StabilityRule& rule = {});

}  // namespace evalsuite::stats
