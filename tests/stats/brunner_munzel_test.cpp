// The test that decides `compare`'s verdict (stats/brunner_munzel.h), against scipy.stats.brunnermunzel on the
// comparison oracle's fixtures (censoring, ties within and across entries; a run that never reached is written as
// 1e300, slower than any that did), its p-value at min(n_A, n_B) - 1 df and its exact permutation p-value by brute
// force. The python3 (scipy 1.10) that produced the figures is tests/stats/brunner_munzel_oracle.py.
#include "stats/brunner_munzel.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/stats/comparison_fixtures.h"

namespace evalsuite::stats {
namespace {

using fixtures::FixtureA;
using fixtures::FixtureB;
using fixtures::Group;

TEST(BrunnerMunzelOracleTest, MatchesScipyWithTiesAndRunsThatNeverReached) {
  // scipy: brunnermunzel(A, B).statistic 0.6589924073143221; P(A faster) 0.5875, se 0.1327784645601612;
  // 2 t.sf(0.658992407314322, 9) = 0.526399818202002. C(22, 10) splits: beyond the exact limit.
  const BrunnerMunzelResult r = BrunnerMunzelTest(FixtureA(), FixtureB());
  ASSERT_TRUE(r.defined);
  EXPECT_NEAR(r.statistic, 0.6589924073143221, 1e-12);
  EXPECT_NEAR(r.probability, 0.5875, 1e-12);
  EXPECT_NEAR(r.standard_error, 0.1327784645601612, 1e-12);
  EXPECT_DOUBLE_EQ(r.degrees_of_freedom, 9);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.p_value, 0.526399818202002, 1e-12);
  EXPECT_EQ(BrunnerMunzelVerdict(r, 0.05), 0);
  // B's times x 0.4: statistic -1.6016016435279798, P(A faster) 0.3125, p 0.14370765142544342 at 9 df.
  const BrunnerMunzelResult shifted = BrunnerMunzelTest(FixtureA(), FixtureB(0.4));
  EXPECT_NEAR(shifted.statistic, -1.6016016435279798, 1e-12);
  EXPECT_NEAR(shifted.probability, 0.3125, 1e-12);
  EXPECT_NEAR(shifted.p_value, 0.14370765142544342, 1e-12);
  // Written the other way round: the same test, its sign turned.
  const BrunnerMunzelResult swapped = BrunnerMunzelTest(FixtureB(0.4), FixtureA());
  EXPECT_NEAR(swapped.statistic, 1.6016016435279798, 1e-12);
  EXPECT_NEAR(swapped.p_value, shifted.p_value, 1e-12);
}

TEST(BrunnerMunzelOracleTest, ExactPermutationPValueAtFewRuns) {
  // 5 runs each, one of A never reached: statistic 0.8911327886790071 (scipy), P(A faster) 0.68; of the 252 splits
  // of the 10 runs, 94 give |t| at least as large: p = 94 / 252.
  const BrunnerMunzelResult r =
      BrunnerMunzelTest(Group({10, 12, 15, 20, 22}, {1, 1, 1, 0, 1}), Group({14, 18, 25, 28, 33}, {1, 1, 1, 1, 1}));
  ASSERT_TRUE(r.defined);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.statistic, 0.8911327886790071, 1e-12);
  EXPECT_NEAR(r.probability, 0.68, 1e-12);
  EXPECT_NEAR(r.p_value, 94.0 / 252.0, 1e-12);
}

TEST(BrunnerMunzelTest, SeparatedEntriesAndUntestableOnes) {
  // Every run of A before every run of B: no placement variance; 1 / (4 x 5 x 5) stands in, t = 0.5 / 0.1 = 5, and
  // 4 of the 252 splits are as extreme (the oracle's brute force): p = 4 / 252.
  const BrunnerMunzelResult r =
      BrunnerMunzelTest(Group({1, 2, 3, 4, 5}, {1, 1, 1, 1, 1}), Group({6, 7, 8, 9, 10}, {1, 1, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(r.probability, 1);
  EXPECT_NEAR(r.statistic, 5, 1e-12);
  EXPECT_NEAR(r.p_value, 4.0 / 252.0, 1e-12);
  EXPECT_EQ(BrunnerMunzelVerdict(r, 0.05), 1);
  // One run of an entry, or every run tied (none reached): nothing to test.
  EXPECT_FALSE(BrunnerMunzelTest(Group({1}, {1}), Group({6, 7}, {1, 1})).defined);
  const BrunnerMunzelResult none = BrunnerMunzelTest(Group({5, 6}, {0, 0}), Group({6, 7}, {0, 0}));
  EXPECT_FALSE(none.defined);
  EXPECT_DOUBLE_EQ(none.probability, 0.5);
  EXPECT_EQ(BrunnerMunzelVerdict(none, 0.05), 0);
}

}  // namespace
}  // namespace evalsuite::stats
