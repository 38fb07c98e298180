// "Is A really faster than B?" for two entries' runs, with runs that never reached the target censored at the time
// they stopped (not dropped, not capped): the Brunner-Munzel test of P(A faster) = 1/2 (stats/brunner_munzel.h)
// decides, because it keeps its power where the curves cross (the faster entry also the more variable one), which
// the log-rank test, shown beside it, does not; a sequential study's looks are the log-rank test's (its boundaries
// were designed for it). The ratio of median TTA
// with its bootstrap interval (stats/median_ratio.h, also on epochs to target), the restricted mean difference up
// to a stated horizon (stats/restricted_mean.h) and P(A faster) (stats/improvement.h) say how large the difference
// is. The verdict says what it tested:
//   "A reaches the target faster than B (decided by the Brunner-Munzel test: P(A faster) 0.78, p = 0.003, t = 3.41
//    at 19 df, alpha 0.05; log-rank p = 0.41 beside it; ...)", "B ...", or
//   "no difference shown (decided by the Brunner-Munzel test: ...; the interval of the median TTA ratio [0.91, 1.12]
//    includes 1.00; with these runs a difference smaller than 18% could not be detected)".
// The detectable difference is the ratio that the median ratio's standard error (log scale) would show with 80%
// power at alpha: exp((z_{1-alpha/2} + z_{0.8}) se) - 1; it is withheld with the ratio's interval (too few runs).
// The effect sizes answer other questions than the test, so they can point elsewhere: each that does gets a note
// (`notes`) saying so and why, printed beside the verdict by every output.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "stats/brunner_munzel.h"
#include "stats/improvement.h"
#include "stats/median_ratio.h"
#include "stats/restricted_mean.h"
#include "stats/survival.h"

namespace evalsuite::stats {

struct ComparedRuns {
  std::string name;
  std::vector<SurvivalObservation> tta;     // one per counted run: TTA (event) or time spent (censored)
  std::vector<SurvivalObservation> epochs;  // the same in epochs; empty when some run's log has no epochs
};

inline constexpr const char* kDecidedByBrunnerMunzel = "Brunner-Munzel";
inline constexpr const char* kDecidedByLogRank = "log-rank";

struct ComparisonOptions {
  double alpha = 0.05;
  std::optional<double> horizon;  // the restricted mean's; default DefaultHorizon
  std::size_t resamples = 4000;   // bootstrap resamples of the ratio intervals
  double power = 0.80;            // of the detectable difference
  // A sequential study's look: the test's critical |z| (instead of z_{1-alpha/2}) and the ratio intervals at the
  // matching nominal level 2 (1 - Phi(c)) (repeated confidence intervals, Jennison and Turnbull 2000, ch. 9).
  std::optional<double> critical_z;
};

struct EntryComparison {
  std::string a, b;
  double alpha = 0.05;
  double interval_level = 0.95;  // of the ratio intervals (below 1 - alpha's z when critical_z is set)
  std::size_t runs_a = 0, runs_b = 0, reached_a = 0, reached_b = 0;
  LogRankResult log_rank;
  BrunnerMunzelResult brunner_munzel;
  std::string decided_by;    // kDecidedByBrunnerMunzel, or kDecidedByLogRank at a sequential study's look
  double critical_z = 1.96;  // |z| at or beyond which the log-rank test declares a difference (sequential looks)
  MedianRatio tta_ratio;
  std::optional<MedianRatio> epochs_ratio;
  std::optional<RestrictedMeanDifference> restricted_mean;  // nullopt when a group has no time > 0
  ImprovementProbability probability_a_faster;
  std::optional<double> detectable_difference;  // a fraction: 0.18 = 18%
  std::string result;                           // "A faster", "B faster", "no difference shown"
  std::string verdict;                          // the sentence, with the names of A and B
  std::vector<std::string> notes;               // where an effect size beside the verdict points elsewhere, and why
};

// The notes of `c` (ComparisonNotes(c) is what CompareEntries stores in c.notes).
std::vector<std::string> ComparisonNotes(const EntryComparison& c);

// Both groups need runs (std::invalid_argument otherwise).
EntryComparison CompareEntries(const ComparedRuns& a, const ComparedRuns& b, const ComparisonOptions& options = {});

// "A reaches the target faster than B (...)" etc. from the figures (kept apart for the sequential verdict).
std::string ComparisonVerdictText(const EntryComparison& c);

struct MethodDescription {
  const char* name;
  const char* formula;
  const char* source;
};
// The methods of a comparison, for a report's Methods table.
std::vector<MethodDescription> ComparisonMethods();

}  // namespace evalsuite::stats
