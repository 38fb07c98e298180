// Comparing entries by their runs rather than by one number each, with runs that never reached the target kept in.
//
// Probability of improvement (Agarwal et al. 2021, rliable; Bouthillier et al. 2021, "Accounting for variance in
// machine learning benchmarks"): P(TTA_A < TTA_B) for a run of A and a run of B drawn at random, i.e. the
// Mann-Whitney U statistic over nA * nB, ties counting one half. A run that never reached is slower than any run
// that did (two such runs tie). Its interval is a percentile bootstrap: runs resampled with replacement within
// each entry, a fixed seed so the report is reproducible.
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
#include <vector>

#include "stats/interval.h"

namespace evalsuite::stats {

struct ImprovementProbability {
  double probability = 0.5;  // P(TTA_A < TTA_B) + P(tie) / 2
  Interval interval;         // percentile bootstrap, 100 (1 - alpha)%
  std::size_t resamples = 0;
  std::uint64_t seed = 0;
};

// `a` and `b` hold one entry per run: its TTA, nullopt when it never reached. Both must be non-empty.
ImprovementProbability ProbabilityOfImprovement(const std::vector<std::optional<double>>& a,
                                                const std::vector<std::optional<double>>& b, double alpha = 0.05,
                                                std::size_t resamples = 2000, std::uint64_t seed = 20211206);

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
