// The test that decides `compare`'s verdict and that `study plan` plans for: Brunner and Munzel's (2000) test of
// P(A faster) = 1/2, with P(A faster) = P(TTA_A < TTA_B) + P(tie) / 2 and a run that never reached slower than any
// that did (two such runs tie), as stats/improvement.h defines it. Unlike the log-rank test it keeps its power when
// the curves cross: when the faster entry is also the more variable one (A median 80 s, CoV 40%; B median 100 s, CoV
// 8%) the log-rank test showed A faster in 7.5% of comparisons at 42 runs, this test in about 80% at the size the
// planner gives. Its null is "neither entry's runs tend to reach sooner", which for TTAs spread alike on the log
// scale is "the median TTA ratio is 1": equal medians with unequal spreads are no difference here, where the
// log-rank test, which compares whole curves, declared one in 20% to 40% of such comparisons at 20 to 40 runs.
//
//   t = (p - 1/2) / sqrt(s_A^2 / n_A + s_B^2 / n_B),  s_A^2 = sum (R_i - R^A_i - mean + (n_A + 1) / 2)^2 /
//   ((n_A - 1) n_B^2), over A's runs (R pooled midranks, R^A midranks within A), likewise s_B^2,
// positive when A is the faster. Its reference distribution:
//   - with at most kExactSplits ways to split the N runs into the two entries' sizes, the exact permutation
//     distribution of t itself (studentized permutation test, Neubert and Brunner 2007): exact when the entries are
//     exchangeable, and within simulation error of alpha at 5 runs per entry where they are not;
//   - beyond, Student's t at min(n_A, n_B) - 1 degrees of freedom (Welch's conservative choice; with
//     Satterthwaite's the test rejected 7% at 5 runs per entry and 5.5% to 6.4% at 8).
// Entries that do not overlap at all (every run of A faster than every run of B) have no placement variance; it is
// then taken as 1 / (4 n_A n_B), one pair's Bernoulli(1/2) variance over the n_A n_B pairs. The type I error and the
// power where curves cross are simulated in tests/stats/crossing_verdict_simulation_test.cpp.
#pragma once

#include <cstddef>
#include <vector>

#include "stats/survival.h"

namespace evalsuite::stats {

// Up to this many splits of the pooled runs the reference distribution is the exact permutation one (C(16, 8) =
// 12,870: 8 runs per entry).
inline constexpr double kExactSplits = 15000;

struct BrunnerMunzelResult {
  bool defined = false;           // false: an entry has fewer than 2 runs, or every run ties with every other
  double probability = 0.5;       // P(A faster), ties 1/2
  double statistic = 0;           // t above: positive when A is the faster
  double standard_error = 0;      // of `probability`
  double degrees_of_freedom = 0;  // min(n_A, n_B) - 1 (of the t reference, also shown when exact)
  double p_value = 1;             // two-sided
  bool exact = false;             // p_value from the exact permutation distribution
};

BrunnerMunzelResult BrunnerMunzelTest(const std::vector<SurvivalObservation>& a,
                                      const std::vector<SurvivalObservation>& b);

// The verdict the test gives at two-sided level `alpha`: +1 A faster, -1 B faster, 0 no difference shown. The one
// function `compare` (stats/entry_comparison.h) and the planner's simulations (stats/comparison_power.h) both ask.
int BrunnerMunzelVerdict(const BrunnerMunzelResult& result, double alpha);

}  // namespace evalsuite::stats
