// Two entries compared: log-rank, restricted mean and the median ratio against statsmodels and scipy (values from
// `/usr/bin/python3 tests/stats/comparison_oracle.py`, Debian's python3-statsmodels 0.13.5 and python3-scipy
// 1.10.1), the verdict's wording, and the ratio interval's coverage by simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "stats/entry_comparison.h"
#include "stats/median_ratio.h"
#include "stats/restricted_mean.h"
#include "stats/survival.h"
#include "tests/stats/comparison_fixtures.h"

namespace evalsuite::stats {
namespace {

using fixtures::FixtureA;
using fixtures::FixtureB;
using fixtures::Group;

TEST(LogRankOracleTest, MatchesStatsmodelsSurvdiffWithTiesAndCensoring) {
  // statsmodels.duration.survfunc.survdiff: chisq 0.689903638683, p 0.4061971587.
  const LogRankResult r = LogRankTest(FixtureA(), FixtureB());
  EXPECT_NEAR(r.chi_square, 0.689903638683, 1e-9);
  EXPECT_NEAR(r.p_value, 0.4061971587, 1e-9);
  EXPECT_NEAR(r.z * r.z, r.chi_square, 1e-12);
  EXPECT_GT(r.z, 0);  // A's events come earlier than B's: more than expected
}

TEST(LogRankOracleTest, MatchesSurvdiffOnAClearDifferenceAndSignsIt) {
  // B's times x 0.4: chisq 5.7652334318, p 0.0163463133168.
  const LogRankResult r = LogRankTest(FixtureA(), FixtureB(0.4));
  EXPECT_NEAR(r.chi_square, 5.7652334318, 1e-8);
  EXPECT_NEAR(r.p_value, 0.0163463133168, 1e-9);
  EXPECT_LT(r.z, 0);  // B reaches sooner
  const LogRankResult swapped = LogRankTest(FixtureB(0.4), FixtureA());
  EXPECT_NEAR(swapped.z, -r.z, 1e-12);
}

TEST(LogRankOracleTest, PermutationVarianceMatchesTheOracle) {
  // numpy from the scores' definition: B x 1: U 1.48370459949, V 3.35282155378, z 0.810293253796,
  // p 0.417771651722; B x 0.4: U -4.02210170291, V 3.50218818748, z -2.14923205131, p 0.0316160097564.
  const LogRankResult same = LogRankTest(FixtureA(), FixtureB());
  EXPECT_NEAR(same.observed_a - same.expected_a, 1.48370459949, 1e-9);
  EXPECT_NEAR(same.permutation_variance, 3.35282155378, 1e-9);
  EXPECT_NEAR(same.permutation_z, 0.810293253796, 1e-9);
  EXPECT_NEAR(same.permutation_p_value, 0.417771651722, 1e-9);
  const LogRankResult shifted = LogRankTest(FixtureA(), FixtureB(0.4));
  EXPECT_NEAR(shifted.permutation_variance, 3.50218818748, 1e-9);
  EXPECT_NEAR(shifted.permutation_z, -2.14923205131, 1e-9);
  EXPECT_NEAR(shifted.permutation_p_value, 0.0316160097564, 1e-9);
}

TEST(RestrictedMeanOracleTest, MatchesSurvfuncRightAreaAndVariance) {
  // Area under SurvfuncRight's curve and Klein-Moeschberger's variance from its n_risk and n_events:
  // tau 30: A 21.94 se 2.66917964926; B 24.6388888889 se 1.75252732456
  // tau 40: A 24.5 se 3.63603263645; B 28.4583333333 se 2.95838223747
  const RestrictedMean a30 = RestrictedMeanTime(FixtureA(), 30), b30 = RestrictedMeanTime(FixtureB(), 30);
  EXPECT_NEAR(a30.mean, 21.94, 1e-9);
  EXPECT_NEAR(a30.standard_error, 2.66917964926, 1e-9);
  EXPECT_NEAR(b30.mean, 24.6388888889, 1e-9);
  EXPECT_NEAR(b30.standard_error, 1.75252732456, 1e-9);
  const RestrictedMean a40 = RestrictedMeanTime(FixtureA(), 40), b40 = RestrictedMeanTime(FixtureB(), 40);
  EXPECT_NEAR(a40.mean, 24.5, 1e-9);
  EXPECT_NEAR(a40.standard_error, 3.63603263645, 1e-9);
  EXPECT_NEAR(b40.mean, 28.4583333333, 1e-9);
  EXPECT_NEAR(b40.standard_error, 2.95838223747, 1e-9);
  EXPECT_DOUBLE_EQ(DefaultHorizon(FixtureA(), FixtureB()), 40);
  const RestrictedMeanDifference d = CompareRestrictedMeans(FixtureA(), FixtureB(), 40);
  EXPECT_NEAR(d.difference, 24.5 - 28.4583333333, 1e-9);
  // The small-sample interval: variances times n / (n - 1), Student's t at Welch-Satterthwaite's df. scipy:
  //   va = 3.63603263645**2 * 10/9; vb = 2.95838223747**2 * 12/11; df = (va+vb)**2/(va**2/9 + vb**2/11)
  //   q = scipy.stats.t.ppf(0.975, df); d -+ q sqrt(va + vb); 2 t.sf(|d| / sqrt(va + vb), df)
  // gives df 18.2079055799, [-14.2930205217, 6.37635385507], p 0.431755196622.
  EXPECT_NEAR(d.degrees_of_freedom, 18.2079055799, 1e-8);
  ASSERT_TRUE(d.interval);
  EXPECT_NEAR(d.interval->lower, -14.2930205217, 1e-8);
  EXPECT_NEAR(d.interval->upper, 6.37635385507, 1e-8);
  ASSERT_TRUE(d.p_value);
  EXPECT_NEAR(*d.p_value, 0.431755196622, 1e-9);
}

// Issue 34 item 7: the default horizon (the shorter of the entries' longest runs) fell before any run reached, and
// the comparison printed a difference of 0 [0, 0]. Now withheld, with the reason.
TEST(RestrictedMeanTest, NoRunReachingByTheHorizonWithholdsTheDifference) {
  const auto a = Group({5, 6, 7}, {0, 0, 0});     // crashed early, never reached
  const auto b = Group({20, 22, 25}, {1, 1, 1});  // reached, but only after A's runs had stopped
  const RestrictedMeanDifference d = CompareRestrictedMeans(a, b, DefaultHorizon(a, b), 0.05, "a", "b");
  EXPECT_DOUBLE_EQ(d.difference, 0);
  EXPECT_FALSE(d.interval);
  EXPECT_FALSE(d.p_value);
  EXPECT_NE(d.withheld.find("no run of a or b reached the target by the horizon"), std::string::npos) << d.withheld;
}

// Issue 50 item 5: two MLPerf bert submissions (about 5 min and 18 min, every run reached) printed "restricted mean
// up to 354: ... difference -44.94" while their means were 309 s and 1,103 s: the default horizon stopped at the
// faster entry's longest run although its curve is 0 after it. survRM2 (R) is not installed here; the oracle is by
// hand: with every run reached and the horizon at or past the longest, each restricted mean is the plain mean, the
// Klein-Moeschberger variance times n / (n - 1) is s^2 / n, and the interval is Welch's. python3 with scipy:
//   a = [290, 300, 305, 310, 340]; b = [1000, 1050, 1100, 1150, 1215]
//   va = var(a, ddof=1) / 5; vb = var(b, ddof=1) / 5; df = (va + vb)**2 / (va**2 / 4 + vb**2 / 4)
//   d = mean(a) - mean(b); d -+ t.ppf(0.975, df) sqrt(va + vb); ttest_ind(a, b, equal_var=False).pvalue
// gives 309, 1103, -794, df 4.402101770467291, [-897.0720569544457, -690.9279430455543], p 1.5020458685677656e-05.
TEST(RestrictedMeanTest, DefaultHorizonCoversEveryRunWhenTheLongestRunsReached) {
  const auto a = Group({290, 300, 305, 310, 340}, {1, 1, 1, 1, 1});
  const auto b = Group({1000, 1050, 1100, 1150, 1215}, {1, 1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(DefaultHorizon(a, b), 1215);
  EXPECT_DOUBLE_EQ(DefaultHorizon(b, a), 1215);
  const RestrictedMeanDifference d = CompareRestrictedMeans(a, b, DefaultHorizon(a, b), 0.05, "A", "B");
  EXPECT_NEAR(d.a.mean, 309, 1e-9);
  EXPECT_NEAR(d.b.mean, 1103, 1e-9);
  EXPECT_NEAR(d.difference, -794, 1e-9);
  EXPECT_NEAR(d.degrees_of_freedom, 4.402101770467291, 1e-9);
  ASSERT_TRUE(d.interval);
  EXPECT_NEAR(d.interval->lower, -897.0720569544457, 1e-8);
  EXPECT_NEAR(d.interval->upper, -690.9279430455543, 1e-8);
  EXPECT_NEAR(*d.p_value, 1.5020458685677656e-05, 1e-12);
  EXPECT_EQ(HorizonTruncationText(d, "A", "B"), "");
}

// Where a curve stops unknown (A's longest run stopped below the target at 340), the horizon stops there, and the
// headline says which runs that reached it cuts. A's area by hand: 290 x 1 + 10 x 0.8 + 5 x 0.6 + 5 x 0.4 +
// 30 x 0.2 = 309; every run of B reached after 340, so B's restricted mean is 340.
TEST(RestrictedMeanTest, AHorizonThatCutsRunsWhichReachedSaysSo) {
  const auto a = Group({290, 300, 305, 310, 340}, {1, 1, 1, 1, 0});
  const auto b = Group({1000, 1050, 1100, 1150, 1215}, {1, 1, 1, 1, 1});
  EXPECT_DOUBLE_EQ(DefaultHorizon(a, b), 340);
  const RestrictedMeanDifference d = CompareRestrictedMeans(a, b, DefaultHorizon(a, b), 0.05, "A", "B");
  EXPECT_NEAR(d.a.mean, 309, 1e-9);
  EXPECT_NEAR(d.b.mean, 340, 1e-9);
  EXPECT_EQ(d.reached_after_horizon_a, 0u);
  EXPECT_EQ(d.reached_after_horizon_b, 5u);
  EXPECT_EQ(HorizonTruncationText(d, "A", "B"),
            "truncated: 5 run(s) of B reached the target after the horizon and count only up to it, so these are "
            "not the mean TTAs");
  // A horizon given below both: both entries' cut runs are named.
  const RestrictedMeanDifference given = CompareRestrictedMeans(a, b, 300, 0.05, "A", "B");
  EXPECT_EQ(given.reached_after_horizon_a, 2u);  // 305 and 310; 340 never reached
  EXPECT_NE(HorizonTruncationText(given, "A", "B").find("2 run(s) of A and 5 run(s) of B"), std::string::npos);
}

TEST(RestrictedMeanTest, FollowUpEndIsTheLastTimeUnlessTheCurveIsZeroThere) {
  EXPECT_DOUBLE_EQ(FollowUpEnd(Group({3, 5, 8}, {1, 0, 0})), 8);
  EXPECT_TRUE(std::isinf(FollowUpEnd(Group({3, 5, 8}, {1, 0, 1}))));
}

TEST(RestrictedMeanTest, UncensoredIsTheMeanOfTimesCappedAtTheHorizon) {
  const auto g = Group({3, 5, 8, 13}, {1, 1, 1, 1});
  EXPECT_NEAR(RestrictedMeanTime(g, 10).mean, (3 + 5 + 8 + 10) / 4.0, 1e-12);
  EXPECT_NEAR(RestrictedMeanTime(g, 20).mean, (3 + 5 + 8 + 13) / 4.0, 1e-12);
  EXPECT_THROW(RestrictedMeanTime({}, 10), std::invalid_argument);
  EXPECT_THROW(RestrictedMeanTime(g, 0), std::invalid_argument);
}

TEST(MedianRatioTest, KaplanMeierMedianAgreesWithTheCurve) {
  std::mt19937_64 engine(11);
  std::lognormal_distribution<double> tta(3, 0.3);
  std::uniform_real_distribution<double> budget(15, 40);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<SurvivalObservation> g;
    const int n = 1 + trial % 17;
    for (int i = 0; i < n; ++i) {
      const double t = std::round(tta(engine)), cap = std::round(budget(engine));
      g.push_back(t <= cap ? SurvivalObservation{t, true} : SurvivalObservation{cap, false});
    }
    const auto full = EstimateKaplanMeier(g).median;
    const auto fast = KaplanMeierMedian(g);
    ASSERT_EQ(full.has_value(), fast.has_value()) << "trial " << trial;
    if (full) EXPECT_DOUBLE_EQ(*full, *fast) << "trial " << trial;
  }
}

TEST(MedianRatioOracleTest, MatchesScipyPercentileBootstrap) {
  // scipy.stats.bootstrap((a, b), median(a)/median(b), paired=False, method="percentile", n_resamples=20000,
  // random_state=default_rng(7)): ratio 0.824306472919, interval [0.772251308901, 0.894526034713]. Two generators
  // draw different resamples, so the bounds agree to the simulation's error, not to the digit.
  const std::vector<double> a{31.2, 29.8, 33.5, 30.1, 35.9, 28.7, 32.2, 30.9, 34.4, 29.5, 31.7, 33.0, 30.4, 36.8, 29.1};
  const std::vector<double> b{36.1, 38.4, 34.9, 40.2, 37.7, 35.5, 39.6, 41.8, 36.9, 38.0, 35.2, 42.5};
  const MedianRatio r = BootstrapMedianRatio(Group(a, std::vector<int>(a.size(), 1)),
                                             Group(b, std::vector<int>(b.size(), 1)), 0.05, 20000);
  ASSERT_TRUE(r.ratio);
  EXPECT_NEAR(*r.ratio, 0.824306472919, 1e-12);
  ASSERT_TRUE(r.interval);
  EXPECT_NEAR(r.interval->lower, 0.772251308901, 0.006);
  EXPECT_NEAR(r.interval->upper, 0.894526034713, 0.006);
  EXPECT_EQ(r.undefined_resamples, 0u);
}

TEST(MedianRatioTest, NotReachedMediansGiveUnboundedIntervals) {
  // A: 2 of 6 reached: its median is not reached, so is the ratio, and the interval's upper bound is infinite.
  const auto a = Group({10, 11, 30, 30, 30, 30}, {1, 1, 0, 0, 0, 0});
  const auto b = Group({10, 12, 13, 14, 15, 16}, {1, 1, 1, 1, 1, 1});
  const MedianRatio r = BootstrapMedianRatio(a, b, 0.05, 1000);
  EXPECT_FALSE(r.median_a);
  EXPECT_FALSE(r.ratio);
  ASSERT_TRUE(r.interval);
  EXPECT_TRUE(std::isinf(r.interval->upper));
  EXPECT_FALSE(r.log_standard_error);
}

// Issue 34 items 3 and 7: 2 and 3 runs per entry printed a 95% interval that covered 68% / 91% of the time; an
// interval resting on a handful of defined resamples was printed without a word. Both are now withheld.
TEST(MedianRatioTest, TooFewRunsOrDefinedResamplesWithholdTheInterval) {
  const MedianRatio two = BootstrapMedianRatio(Group({10, 11}, {1, 1}), Group({12, 13}, {1, 1}));
  EXPECT_TRUE(two.ratio);
  EXPECT_FALSE(two.interval);
  EXPECT_FALSE(two.log_standard_error);
  EXPECT_NE(two.withheld.find("at least 5 runs of each entry"), std::string::npos) << two.withheld;
  // 5 runs each, 3 of each never reached: most resamples leave both medians unreached.
  const auto a = Group({10, 11, 30, 30, 30}, {1, 1, 0, 0, 0});
  const auto b = Group({12, 13, 30, 30, 30}, {1, 1, 0, 0, 0});
  const MedianRatio few = BootstrapMedianRatio(a, b, 0.05, 4000);
  EXPECT_GT(few.undefined_resamples, 200u);
  EXPECT_FALSE(few.interval);
  EXPECT_NE(few.withheld.find("neither median is reached in"), std::string::npos) << few.withheld;
}

// Coverage of the 95% ratio interval: lognormal TTA (CoV about 20%), B 25% slower than A, some runs censored by an
// epoch budget far above both medians, so the true median ratio is exp(0) / exp(log 1.25) = 0.8.
TEST(MedianRatioSimulationTest, IntervalCoversAtLeastNominallyWithinSimulationError) {
  constexpr int kStudies = 400;
  constexpr int kRuns = 20;
  std::mt19937_64 engine(2024);
  std::normal_distribution<double> noise(0, 0.2);
  std::bernoulli_distribution censored(0.1);
  int covered = 0;
  for (int s = 0; s < kStudies; ++s) {
    std::vector<SurvivalObservation> a, b;
    for (int i = 0; i < kRuns; ++i) {
      // A censored run stopped below the target at a time drawn beyond its median (a run that diverged late).
      const double ta = std::exp(std::log(100.0) + noise(engine));
      const double tb = std::exp(std::log(125.0) + noise(engine));
      a.push_back(censored(engine) ? SurvivalObservation{ta * 1.5, false} : SurvivalObservation{ta, true});
      b.push_back(censored(engine) ? SurvivalObservation{tb * 1.5, false} : SurvivalObservation{tb, true});
    }
    const MedianRatio r = BootstrapMedianRatio(a, b, 0.05, 1000, 100 + s);
    covered += (r.interval && r.interval->lower <= 0.8 && 0.8 <= r.interval->upper) ? 1 : 0;
  }
  const double coverage = static_cast<double>(covered) / kStudies;
  const double se = std::sqrt(0.95 * 0.05 / kStudies);
  std::printf("ratio interval coverage: %.3f over %d simulated comparisons of %d runs each (SE %.3f)\n", coverage,
              kStudies, kRuns, se);
  EXPECT_GE(coverage, 0.95 - 3 * se);
}

ComparedRuns Runs(const char* name, const std::vector<SurvivalObservation>& tta) { return {name, tta, {}}; }

// The verdict names the test that decided it (issue 50 item 11: Brunner-Munzel, tests/stats/brunner_munzel_test.cpp;
// B's times x 0.2: t = -2.5252982782599265, p = 0.032485013864011314 at 9 df by brunner_munzel_oracle.py's stat()).
TEST(EntryComparisonTest, ClearDifferenceSaysWhichIsFasterAndWhatWasTested) {
  const EntryComparison c = CompareEntries(Runs("base", FixtureA()), Runs("opt", FixtureB(0.2)));
  EXPECT_EQ(c.result, "B faster");
  EXPECT_EQ(c.decided_by, kDecidedByBrunnerMunzel);
  EXPECT_EQ(c.verdict.rfind("opt reaches the target faster than base (decided by the Brunner-Munzel test: P(base "
                            "faster) 0.22, p = 0.032, t = -2.53 at 9 df, alpha 0.05; log-rank p ",
                            0),
            0u)
      << c.verdict;
  EXPECT_NE(c.verdict.find("alpha 0.05"), std::string::npos) << c.verdict;
  ASSERT_TRUE(c.restricted_mean);
  EXPECT_GT(c.restricted_mean->difference, 0);  // base takes longer on average up to the horizon
  EXPECT_LT(c.probability_a_faster.probability, 0.5);
  EXPECT_EQ(c.runs_a, 10u);
  EXPECT_EQ(c.reached_b, 9u);
}

TEST(EntryComparisonTest, NoDifferenceStatesTheIntervalAndTheDetectableDifference) {
  const EntryComparison c = CompareEntries(Runs("a", FixtureA()), Runs("b", FixtureB()));
  EXPECT_EQ(c.result, "no difference shown");
  ASSERT_TRUE(c.detectable_difference);
  EXPECT_GT(*c.detectable_difference, 0);
  EXPECT_EQ(c.verdict.rfind("no difference shown (decided by the Brunner-Munzel test: P(a faster) 0.59, p = 0.526, "
                            "t = 0.66 at 9 df, alpha 0.05; log-rank p = 0.418, z = 0.81 beside it",
                            0),
            0u)
      << c.verdict;
  EXPECT_NE(c.verdict.find("which includes 1.00"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("could not be detected"), std::string::npos) << c.verdict;
}

TEST(EntryComparisonTest, SequentialCriticalValueWidensTheIntervals) {
  ComparisonOptions options;
  options.critical_z = 2.5;
  const EntryComparison c = CompareEntries(Runs("base", FixtureA()), Runs("opt", FixtureB(0.4)), options);
  EXPECT_EQ(c.result, "no difference shown");  // |z| = 2.15 < 2.5
  EXPECT_EQ(c.decided_by, kDecidedByLogRank);  // a sequential look's boundary is the log-rank test's
  EXPECT_NEAR(c.interval_level, 1 - 2 * 0.0062096653257761, 1e-9);
  EXPECT_NE(c.verdict.find("critical |z| 2.50"), std::string::npos) << c.verdict;
  EXPECT_THROW(CompareEntries(Runs("a", {}), Runs("b", FixtureB())), std::invalid_argument);
}

// Issue 34 item 3: "a difference smaller than 14% could not be detected" from 2 runs each rested on the ratio
// interval that does not cover there; the verdict now says the interval is withheld and bounds nothing.
TEST(EntryComparisonTest, TwoRunsEachWithholdTheRatioIntervalAndTheDetectableDifference) {
  const EntryComparison c = CompareEntries(Runs("a", Group({10, 11}, {1, 1})), Runs("b", Group({12, 12.5}, {1, 1})));
  EXPECT_FALSE(c.tta_ratio.interval);
  EXPECT_FALSE(c.detectable_difference);
  EXPECT_EQ(c.verdict.find("could not be detected"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("withheld: it needs at least 5 runs of each entry"), std::string::npos) << c.verdict;
  EXPECT_NE(c.verdict.find("no size of difference can be ruled out"), std::string::npos) << c.verdict;
}

// Issue 34 item 5: the verdict and an effect size beside it disagreed without a word. The test shows A faster (the
// curves differ as a whole) while the medians' ratio interval holds 1: a note says so and why.
TEST(EntryComparisonTest, AnEffectSizePointingElsewhereGetsANote) {
  const EntryComparison clear = CompareEntries(Runs("base", FixtureA()), Runs("opt", FixtureB(0.2)));
  ASSERT_EQ(clear.result, "B faster");
  for (const std::string& note : clear.notes) {
    // Every note names a figure and the test, and says why they differ.
    EXPECT_NE(note.find("the Brunner-Munzel test asks whether a run of one entry"), std::string::npos) << note;
  }
  // Same entries, no difference shown: a note for each effect size interval that excludes no difference.
  const EntryComparison same = CompareEntries(Runs("a", FixtureA()), Runs("b", FixtureB()));
  ASSERT_EQ(same.result, "no difference shown");
  EXPECT_TRUE(same.notes.empty()) << same.notes.front();
  // Hand-built: A faster by the test, P(A faster) below 1/2 and the median ratio above 1.
  EntryComparison c = same;
  c.result = "A faster";
  c.probability_a_faster.probability = 0.486;
  c.probability_a_faster.interval = Interval{0.3, 0.67};
  c.tta_ratio.interval = Interval{1.02, 1.3};
  const std::vector<std::string> notes = ComparisonNotes(c);
  ASSERT_GE(notes.size(), 2u);
  EXPECT_NE(notes[0].find("points the other way (b faster) while the test finds a faster"), std::string::npos)
      << notes[0];
  bool probability_note = false;
  for (const auto& n : notes) probability_note |= n.find("P(a faster) 0.486") != std::string::npos;
  EXPECT_TRUE(probability_note);
}

// Issue 34 item 5, over random data sets as the issue counted them (there: "A faster" beside a ratio interval
// covering 1 in 21 of 300, "no difference shown" beside one excluding 1 in 20): whenever the median ratio's or
// P(A faster)'s interval points elsewhere than the verdict, a note names that figure. Seeded; 300 data sets of 3 to 12
// runs per entry, lognormal TTA, ratios 0.7 to 1.1, some runs censored by a budget.
TEST(EntryComparisonTest, EveryDisagreementBesideTheVerdictHasANote) {
  std::mt19937_64 engine(300);
  std::uniform_int_distribution<int> runs(3, 12);
  std::uniform_real_distribution<double> ratio(0.7, 1.1), cov(0.05, 0.45), budget(1.1, 2.0);
  std::normal_distribution<double> z(0, 1);
  int disagreements = 0;
  for (int set = 0; set < 300; ++set) {
    const int n = runs(engine);
    const double r = ratio(engine), sigma = std::sqrt(std::log(1 + std::pow(cov(engine), 2))), cap = budget(engine);
    std::vector<SurvivalObservation> a, b;
    for (int i = 0; i < n; ++i) {
      const double ta = r * std::exp(sigma * z(engine)), tb = std::exp(sigma * z(engine));
      a.push_back(ta <= cap ? SurvivalObservation{ta, true} : SurvivalObservation{cap, false});
      b.push_back(tb <= cap ? SurvivalObservation{tb, true} : SurvivalObservation{cap, false});
    }
    ComparisonOptions options;
    options.resamples = 400;
    const EntryComparison c = CompareEntries(Runs("a", a), Runs("b", b), options);
    const int verdict = c.result == "A faster" ? -1 : c.result == "B faster" ? 1 : 0;
    auto has_note = [&](const std::string& figure) {
      for (const std::string& note : c.notes) {
        if (note.rfind(figure, 0) == 0) return true;
      }
      return false;
    };
    if (c.tta_ratio.interval) {
      const Interval& i = *c.tta_ratio.interval;
      const int direction = i.upper < 1 ? -1 : i.lower > 1 ? 1 : 0;
      if (direction != verdict) {
        ++disagreements;
        EXPECT_TRUE(has_note("The median TTA ratio's")) << "set " << set << ": " << c.verdict;
      }
    }
    if (c.probability_a_faster.interval) {
      const Interval& i = *c.probability_a_faster.interval;
      const int direction = i.lower > 0.5 ? -1 : i.upper < 0.5 ? 1 : 0;
      if (direction != verdict) {
        ++disagreements;
        EXPECT_TRUE(has_note("P(a faster)")) << "set " << set << ": " << c.verdict;
      }
    }
    for (const std::string& note : c.notes) EXPECT_NE(note.find("the Brunner-Munzel test asks"), std::string::npos);
  }
  std::printf("%d disagreements between the verdict and an effect-size interval in 300 data sets, each with its note\n",
              disagreements);
  EXPECT_GT(disagreements, 10);  // the test saw the cases it is about
}

}  // namespace
}  // namespace evalsuite::stats
