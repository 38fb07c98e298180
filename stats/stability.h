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
  std::size_t consecutive = 1;      // the crossing rule TTA used (stats/curve.h): 1 = first crossing
  // The evaluation grid where runs crossed (median over the runs that reached of CrossingResolution): a TTA is
  // known only to this resolution. nullopt when no run reached.
  std::optional<double> resolution;
  // At least two runs reached and the grid is at least as coarse as their spread (max - min TTA): the CoV then
  // measures the grid as much as the runs (identical TTAs give a degenerate [0%, 0%] interval).
  bool grid_coarser_than_spread = false;
};

// ERT counts a run that reached the target until its TTA and a failed run with its time_spent; Kaplan-Meier has an
// event at the TTA of each run that reached the target and censors the others at their time_spent. The olympic mean
// drops one run each side (MLPerf). `consecutive` is the crossing rule (TimeToTarget).
StabilityStats AnalyzeStability(const std::vector<RunCurve>& runs, double threshold, double alpha = 0.05,
                                std::size_t consecutive = 1);

// What a verdict judges: TTA in the run's time unit (DAWNBench's definition, the default), or epochs to target, which
// leaves the machine's speed out (a busy or throttled machine changes time per epoch, not the epochs a seed needs).
constexpr const char* kBasisTime = "time";
constexpr const char* kBasisEpochs = "epochs";

// The stated rule a report's verdict uses. Defaults: the CoV interval's upper bound at most 10% (the paper saw
// at most 4.5% for plain entries, up to 12.2% with cyclic LR or progressive resizing), and at least 90% of
// runs reaching the target, with at least 3 runs reaching it. The rule is asymmetric on purpose, and says so: the
// CoV must be *shown* low by its interval's upper bound, the hit rate is judged by its point estimate (by its
// interval a 90% minimum would need 36 of 36 runs). Each criterion is satisfied, NOT satisfied (its interval
// shows it broken) or can't tell (its interval straddles the limit, or too few runs).
struct StabilityRule {
  double max_cov_upper = 0.10;
  double min_hit_rate = 0.90;
  std::size_t min_reached = 3;
  // TTA's crossing rule: the metric at or above the target for this many consecutive evaluations (1 = the first
  // crossing, DAWNBench's default).
  std::size_t consecutive_evaluations = 1;
  std::string basis = kBasisTime;  // kBasisTime or kBasisEpochs: the statistics the verdict is judged on
  // "How many runs would tell" is the number that brings the CoV's upper bound within the limit with this
  // probability, if the true CoV is the measured one.
  double assurance = 0.80;
};

// One criterion's line, loadgen style: what was compared, then the outcome.
struct StabilityCriterion {
  std::string name;     // "cov", "hit_rate", "min_reached"
  std::string outcome;  // "satisfied", "NOT satisfied", "can't tell"
  std::string detail;   // e.g. "CoV 95% upper bound 6.1% <= 10%"
};

struct StabilityVerdict {
  bool stable = false;
  // "STABLE" (every rule satisfied), "NOT STABLE" (an interval shows a rule broken: the CoV's lower bound above
  // the limit, or the hit rate's upper bound below the minimum) or "INCONCLUSIVE" (neither: too few runs to tell).
  std::string result = "NOT STABLE";
  std::vector<StabilityCriterion> criteria;  // one per rule, in the order cov, hit_rate, min_reached
  // "detail: outcome" per criterion, then notes: what blocks the verdict, what more runs would do, degenerate
  // intervals and a grid coarser than the spread.
  std::vector<std::string> reasons;
  // CoV can't tell: how many runs reaching the target bring the CoV's upper bound within the limit with
  // probability rule.assurance if the true CoV is the measured one (nullopt when none would: the CoV itself is
  // at or above the limit), and how many would do it only half the time.
  std::optional<std::size_t> reached_runs_needed;
  std::optional<std::size_t> reached_runs_even_odds;
  double assurance = 0.80;
};

// Criterion lines read like "CoV 95% upper bound 6.1% <= 10%: satisfied" or "hit rate 2/10 = 20% < 90%, and its
// 95% upper bound 55.6% < 90%: NOT satisfied". STABLE when every criterion is satisfied, NOT STABLE when one is
// NOT satisfied, INCONCLUSIVE otherwise.
StabilityVerdict JudgeStability(const StabilityStats& stats, const StabilityRule& rule = {});

}  // namespace evalsuite::stats
