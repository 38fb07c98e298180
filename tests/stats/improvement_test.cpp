#include "stats/improvement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace evalsuite::stats {
namespace {

// P(TTA_A < TTA_B) with runs that never reached slower than any that did. scipy oracle (a never-reached run as a
// large number; mannwhitneyu's statistic counts pairs with a > b, ties 1/2):
//   1 - mannwhitneyu([10, 20, 1e12], [15, 1e12, 1e12]).statistic / 9 = 1 - 3/9 = 0.666667
TEST(ProbabilityOfImprovementTest, CountsNeverReachedAsSlowest) {
  const ImprovementProbability p =
      ProbabilityOfImprovement({10.0, 20.0, std::nullopt}, {15.0, std::nullopt, std::nullopt});
  EXPECT_NEAR(p.probability, 6.0 / 9.0, 1e-12);
  ASSERT_TRUE(p.interval);
  EXPECT_TRUE(p.withheld.empty());
  // The order of the runs does not matter (the old bootstrap's draws did): one figure for every output.
  const ImprovementProbability shuffled =
      ProbabilityOfImprovement({std::nullopt, 20.0, 10.0}, {std::nullopt, 15.0, std::nullopt});
  ASSERT_TRUE(shuffled.interval);
  EXPECT_EQ(p.interval->lower, shuffled.interval->lower);
  EXPECT_EQ(p.interval->upper, shuffled.interval->upper);
  // Symmetry: P(A < B) + P(B < A) = 1 with ties halved.
  EXPECT_NEAR(ProbabilityOfImprovement({15.0, std::nullopt, std::nullopt}, {10.0, 20.0, std::nullopt}).probability,
              3.0 / 9.0, 1e-12);
  EXPECT_DOUBLE_EQ(ProbabilityOfImprovement({std::nullopt}, {std::nullopt}).probability, 0.5);
}

// The count is by sorting, not over every pair: the same figure to the last bit as the pairwise sum of wins and half
// ties, on runs with many ties (TTAs on an evaluation grid), runs that never reached, and entries of unequal sizes.
TEST(ProbabilityOfImprovementTest, TheSortedCountIsThePairwiseSum) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> size(1, 60), grid(0, 12), never(0, 5);
    std::vector<std::optional<double>> a(static_cast<std::size_t>(size(rng))), b(static_cast<std::size_t>(size(rng)));
    for (auto* runs : {&a, &b}) {
      for (auto& t : *runs) {
        if (never(rng) == 0) continue;  // did not reach
        t = 10.0 + 2.5 * grid(rng);
      }
    }
    double wins = 0;
    for (const auto& x : a) {
      for (const auto& y : b) {
        const double kx = x.value_or(INFINITY), ky = y.value_or(INFINITY);
        wins += kx < ky ? 1.0 : kx == ky ? 0.5 : 0.0;
      }
    }
    const double pairwise = wins / (static_cast<double>(a.size()) * static_cast<double>(b.size()));
    ASSERT_EQ(ProbabilityOfImprovement(a, b).probability, pairwise) << "trial " << trial;
  }
}

// Oracle: `/usr/bin/python3 tests/stats/improvement_oracle.py` (Newcombe's method 5 with a t quantile, written again
// with scipy.optimize.brentq and scipy.stats.t, scipy 1.10.1).
TEST(ProbabilityOfImprovementOracleTest, NewcombeIntervalMatchesScipy) {
  struct Case {
    std::vector<std::optional<double>> a, b;
    double theta, lower, upper;
  };
  const std::vector<Case> cases = {
      {{10.0, 20.0, std::nullopt}, {15.0, std::nullopt, std::nullopt}, 0.666666666667, 0.198342582052, 0.9398489998},
      {{1.0, 2.0, 3.0}, {10.0, 11.0, 12.0}, 1, 0.412603009735, 1},
      {{10.0, 11.0, 12.0, 13.0, 14.0}, {1.0, 2.0, 3.0, 4.0}, 0, 0, 0.426367153846},
      {{5.0, 7.0}, {5.0, 7.0}, 0.5, 0.0465897380888, 0.953410261911},
      {{31.0, 29.0, 33.0, 30.0, 35.0, 28.0, 32.0, 30.5, 34.0, 29.5},
       {36.0, 38.0, 34.5, 40.0, 37.0, 35.0, 39.0, 33.5, 36.5, 38.5},
       0.965,
       0.737440779535,
       0.995725690287},
  };
  for (const Case& c : cases) {
    const ImprovementProbability p = ProbabilityOfImprovement(c.a, c.b);
    EXPECT_NEAR(p.probability, c.theta, 1e-11);
    ASSERT_TRUE(p.interval);
    EXPECT_NEAR(p.interval->lower, c.lower, 1e-9);
    EXPECT_NEAR(p.interval->upper, c.upper, 1e-9);
  }
  const Interval at_90 = NewcombeInterval(0.7, 8, 12, 0.1);
  EXPECT_NEAR(at_90.lower, 0.477568508526, 1e-9);
  EXPECT_NEAR(at_90.upper, 0.850771381177, 1e-9);
}

TEST(ProbabilityOfImprovementTest, SeparatedEntriesKeepAnHonestInterval) {
  // The old percentile bootstrap gave [1, 1] here: every resample separated too, so 3 runs "proved" P = 100%.
  const ImprovementProbability p = ProbabilityOfImprovement({1.0, 2.0, 3.0}, {10.0, 11.0, 12.0});
  EXPECT_DOUBLE_EQ(p.probability, 1.0);
  ASSERT_TRUE(p.interval);
  EXPECT_LT(p.interval->lower, 0.5);  // 3 runs each cannot exclude 1/2: the exact Mann-Whitney p is 0.1
  EXPECT_DOUBLE_EQ(p.interval->upper, 1.0);
}

TEST(ProbabilityOfImprovementTest, OneRunOfAnEntryWithholdsTheInterval) {
  const ImprovementProbability p = ProbabilityOfImprovement({1.0}, {10.0, 11.0, 12.0});
  EXPECT_FALSE(p.interval);
  EXPECT_NE(p.withheld.find("at least 2 runs of each entry"), std::string::npos) << p.withheld;
}

// Issue 34 item 4: on identical entries the old interval excluded 1/2 in 18% of simulated 3-run comparisons and 10%
// of 5-run ones. Seeded: lognormal TTA, CoV 25%, 2,000 comparisons per size.
TEST(ProbabilityOfImprovementTest, IdenticalEntriesExcludeOneHalfAtMostAlphaOfTheTime) {
  std::mt19937_64 engine(34);
  std::lognormal_distribution<double> tta(std::log(100.0), 0.246);
  for (int n : {2, 3, 5, 10}) {
    int excluded = 0;
    constexpr int kStudies = 2000;
    for (int s = 0; s < kStudies; ++s) {
      std::vector<std::optional<double>> a, b;
      for (int i = 0; i < n; ++i) a.push_back(tta(engine));
      for (int i = 0; i < n; ++i) b.push_back(tta(engine));
      const ImprovementProbability p = ProbabilityOfImprovement(a, b);
      ASSERT_TRUE(p.interval);
      excluded += p.interval->lower > 0.5 || p.interval->upper < 0.5;
    }
    const double rate = static_cast<double>(excluded) / kStudies;
    EXPECT_LE(rate, 0.05 + 3 * std::sqrt(0.05 * 0.95 / kStudies)) << n << " runs per entry";
  }
}

TEST(ExpectedBestOfNTest, TheListedNAreThoseOfTheFullList) {
  std::vector<std::optional<double>> tta;
  for (int i = 0; i < 40; ++i) tta.push_back(i % 6 == 5 ? std::nullopt : std::optional<double>(100.0 + (i * 37) % 23));
  const std::vector<ExpectedBest> every = ExpectedBestOfN(tta, tta.size());
  const std::vector<ExpectedBest> some = ExpectedBestOfN(tta, std::vector<std::size_t>{1, 2, 3, 5, 10, 40});
  ASSERT_EQ(some.size(), 6u);
  for (const ExpectedBest& best : some) {
    EXPECT_EQ(best.expected_tta, every[best.n - 1].expected_tta) << best.n;
    EXPECT_EQ(best.none_reach, every[best.n - 1].none_reach) << best.n;
  }
}

// Dodge et al. 2019 on -TTA. Oracle: enumeration of every ordered draw of n of [10, 20, 30, never] in Python
// (itertools.product), mean of the fastest among draws where one reached: n=1 20.0, n=2 17.333333,
// n=3 15.238095; P(none reaches) 0.25, 0.0625, 0.015625.
TEST(ExpectedBestOfNTest, MatchesEnumeration) {
  const std::vector<ExpectedBest> best = ExpectedBestOfN({10.0, 20.0, 30.0, std::nullopt}, 3);
  ASSERT_EQ(best.size(), 3u);
  EXPECT_NEAR(*best[0].expected_tta, 20.0, 1e-12);
  EXPECT_NEAR(*best[1].expected_tta, 17.333333333333332, 1e-12);
  EXPECT_NEAR(*best[2].expected_tta, 15.238095238095237, 1e-12);
  EXPECT_DOUBLE_EQ(best[0].none_reach, 0.25);
  EXPECT_DOUBLE_EQ(best[2].none_reach, 0.015625);
  const std::vector<ExpectedBest> none = ExpectedBestOfN({std::nullopt, std::nullopt}, 2);
  EXPECT_FALSE(none[1].expected_tta.has_value());
  EXPECT_DOUBLE_EQ(none[1].none_reach, 1.0);
}

}  // namespace
}  // namespace evalsuite::stats
