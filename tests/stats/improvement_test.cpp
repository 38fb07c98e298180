#include "stats/improvement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
  EXPECT_LE(p.interval.lower, p.probability);
  EXPECT_GE(p.interval.upper, p.probability);
  EXPECT_GE(p.interval.lower, 0.0);
  EXPECT_LE(p.interval.upper, 1.0);
  EXPECT_LT(p.interval.lower, p.interval.upper);
  // Seeded: the same interval every time.
  const ImprovementProbability again =
      ProbabilityOfImprovement({10.0, 20.0, std::nullopt}, {15.0, std::nullopt, std::nullopt});
  EXPECT_EQ(p.interval.lower, again.interval.lower);
  EXPECT_EQ(p.interval.upper, again.interval.upper);
  // Symmetry: P(A < B) + P(B < A) = 1 with ties halved.
  EXPECT_NEAR(ProbabilityOfImprovement({15.0, std::nullopt, std::nullopt}, {10.0, 20.0, std::nullopt}).probability,
              3.0 / 9.0, 1e-12);
  EXPECT_DOUBLE_EQ(ProbabilityOfImprovement({std::nullopt}, {std::nullopt}).probability, 0.5);
}

TEST(ProbabilityOfImprovementTest, SeparatedEntriesHaveADegenerateInterval) {
  const ImprovementProbability p = ProbabilityOfImprovement({1.0, 2.0, 3.0}, {10.0, 11.0, 12.0});
  EXPECT_DOUBLE_EQ(p.probability, 1.0);
  EXPECT_DOUBLE_EQ(p.interval.lower, 1.0);
  EXPECT_DOUBLE_EQ(p.interval.upper, 1.0);
}

// The all-pairs computation the report used before it counted by level (O(nA nB) per resample: minutes for a
// report of 20 entries of 500 runs), kept here as the reference the counted one must equal to the last bit.
ImprovementProbability AllPairs(const std::vector<std::optional<double>>& a,
                                const std::vector<std::optional<double>>& b, double alpha, std::size_t resamples,
                                std::uint64_t seed) {
  auto key = [](const std::optional<double>& t) { return t ? *t : std::numeric_limits<double>::infinity(); };
  auto pairs = [](const std::vector<double>& x, const std::vector<double>& y) {
    double wins = 0;
    for (double u : x) {
      for (double v : y) wins += u < v ? 1.0 : u == v ? 0.5 : 0.0;
    }
    return wins / (static_cast<double>(x.size()) * static_cast<double>(y.size()));
  };
  auto quantile = [](std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    const double position = q * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
  };
  std::vector<double> ka, kb;
  for (const auto& t : a) ka.push_back(key(t));
  for (const auto& t : b) kb.push_back(key(t));
  ImprovementProbability result;
  result.probability = pairs(ka, kb);
  std::mt19937_64 engine(seed);
  std::vector<double> estimates, ra(ka.size()), rb(kb.size());
  for (std::size_t r = 0; r < resamples; ++r) {
    for (double& x : ra) x = ka[engine() % ka.size()];
    for (double& y : rb) y = kb[engine() % kb.size()];
    estimates.push_back(pairs(ra, rb));
  }
  result.interval = {quantile(estimates, alpha / 2), quantile(estimates, 1 - alpha / 2)};
  return result;
}

// Seeded data sets of 1 to 60 runs a side, with tied TTAs (a coarse evaluation grid) and runs that never reached:
// the probability and both bounds are the same doubles as the all-pairs reference's, for the default seed and
// resamples (the report's) and for others.
TEST(ProbabilityOfImprovementTest, CountingByLevelGivesTheAllPairsFiguresExactly) {
  std::mt19937_64 data(7);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t na = 1 + data() % 60, nb = 1 + data() % 60;
    const double grid = trial % 3 == 0 ? 1.0 : 0.001;
    auto draw = [&](std::size_t n, double shift) {
      std::vector<std::optional<double>> tta;
      for (std::size_t i = 0; i < n; ++i) {
        if (data() % 7 == 0) {
          tta.push_back(std::nullopt);
        } else {
          tta.push_back(std::round((100 + shift + static_cast<double>(data() % 2000) / 100) / grid) * grid);
        }
      }
      return tta;
    };
    const auto a = draw(na, 0), b = draw(nb, trial % 2 == 0 ? 0 : 3);
    const std::size_t resamples = trial % 4 == 0 ? 2000 : 300;
    const std::uint64_t seed = trial % 5 == 0 ? 20211206 : 1000 + trial;
    const ImprovementProbability fast = ProbabilityOfImprovement(a, b, 0.05, resamples, seed);
    const ImprovementProbability reference = AllPairs(a, b, 0.05, resamples, seed);
    EXPECT_EQ(fast.probability, reference.probability) << "trial " << trial;
    EXPECT_EQ(fast.interval.lower, reference.interval.lower) << "trial " << trial;
    EXPECT_EQ(fast.interval.upper, reference.interval.upper) << "trial " << trial;
  }
}

// Asking for a few n gives the same figures as asking for every n up to the largest.
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
