// Comparing entries by their runs rather than by one number each, with runs that never reached the target kept in.
//
// Probability of improvement (Agarwal et al. 2021, rliable; Bouthillier et al. 2021, "Accounting for variance in
// machine learning benchmarks"): P(TTA_A < TTA_B) for a run of A and a run of B drawn at random, i.e. the
// Mann-Whitney U statistic over nA * nB, ties counting one half. A run that never reached is slower than any run
// that did (two such runs tie). Its interval is Newcombe's (2006, "Confidence intervals for an effect size measure
// based on the Mann-Whitney statistic. Part 2", method 5): the set of theta with
//   (theta_hat - theta)^2 <= q^2 V(theta),  V(theta) = theta (1 - theta) / (m n) [1 + (N* - 1) ((1 - theta) /
//   (2 - theta) + theta / (1 + theta))],  N* = (m + n) / 2 - 1,
// Hanley and McNeil's variance as a function of theta, inverted as Wilson's interval is, so it stays inside [0, 1]
// and does not collapse when the entries are separated (theta_hat 0 or 1). q is Student's t quantile at m + n - 2
// degrees of freedom instead of z: with z the interval excluded 1/2 for identical entries in 10% of simulated
// 5-run comparisons; with t it covers within simulation error at 2 to 20 runs per entry, with censoring and
// unequal spreads (tests/stats/comparison_coverage_test.cpp). It is a function of the runs alone (no resampling),
// so every output that asks gets the same figure. Fewer than 2 runs of an entry: the interval is withheld.
//
// Expected best-of-n TTA (Dodge et al. 2019, "Show your work: improved reporting of experimental results",
// expected validation performance, here of -TTA): the expected fastest TTA among n runs drawn with replacement
// from the observed ones, i.e. what reporting the best of n runs buys. With sorted TTAs v(1) <= ... <= v(N):
//   E[min of n] = sum_i v(i) [((N-i+1)/N)^n - ((N-i)/N)^n].
// Runs that never reached make the unconditional expectation infinite, so it is given conditional on at least
// one of the n runs reaching, with the probability that none does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/interval.h"

namespace evalsuite::stats {

// The fewest runs of each entry at which the interval is given (its coverage was simulated from there).
inline constexpr std::size_t kImprovementIntervalMinRuns = 2;

struct ImprovementProbability {
  double probability = 0.5;          // P(TTA_A < TTA_B) + P(tie) / 2
  std::optional<Interval> interval;  // Newcombe's method 5 with a t quantile, 100 (1 - alpha)%; nullopt: withheld
  std::string withheld;              // why the interval is not given (empty when it is)
  double alpha = 0.05;
};

// `a` and `b` hold one entry per run: its TTA, nullopt when it never reached. Both must be non-empty.
ImprovementProbability ProbabilityOfImprovement(const std::vector<std::optional<double>>& a,
                                                const std::vector<std::optional<double>>& b, double alpha = 0.05);

// The interval alone, from theta_hat and the two group sizes (m, n >= 1, m + n >= 3).
Interval NewcombeInterval(double theta_hat, std::size_t m, std::size_t n, double alpha);

struct ExpectedBest {
  std::size_t n = 1;
  std::optional<double> expected_tta;  // E[min of n | at least one reached]; nullopt when no run reached
  double none_reach = 0;               // P(none of the n runs reaches) = (failures / N)^n
};

// For n = 1..max_n (runs drawn with replacement from `tta`, nullopt = never reached).
std::vector<ExpectedBest> ExpectedBestOfN(const std::vector<std::optional<double>>& tta, std::size_t max_n);
// For the listed n only (each figure as above): N runs cost O(N) per n, where every n up to N would cost O(N^2).
std::vector<ExpectedBest> ExpectedBestOfN(const std::vector<std::optional<double>>& tta,
                                          const std::vector<std::size_t>& ns);

}  // namespace evalsuite::stats
