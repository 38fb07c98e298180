// The group verdict says only what the images show (issue 56, item 1): on a small holdout a model 11 points
// worse is INCONCLUSIVE, not GENERALIZES; and the decision's error rates, simulated at holdout sizes from 25 to
// 10,000 images, stay within what the verdict's test string promises.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>

#include "generalization/group_verdict.h"

namespace evalsuite::generalization {
namespace {
using nlohmann::json;

// Paired outcomes from the 2x2 counts: `both` right for both, then only the candidate, then only the reference.
std::vector<ModelOutcomes> Paired(size_t both, size_t only_candidate, size_t only_reference, size_t neither) {
  ModelOutcomes reference{"pretrained-ref", "pretrained"}, candidate{"tta", "tta-optimized"};
  auto add = [&](size_t count, int8_t r, int8_t c) {
    reference.top1.insert(reference.top1.end(), count, r);
    candidate.top1.insert(candidate.top1.end(), count, c);
  };
  add(both, 1, 1);
  add(only_candidate, 0, 1);
  add(only_reference, 1, 0);
  add(neither, 0, 0);
  reference.top5 = reference.top1;
  candidate.top5 = candidate.top1;
  return {reference, candidate};
}

// The case: 27 images, the pretrained model 24 right (88.9%), the TTA-optimized one 21 (77.8%), every
// image the candidate gets right the reference gets right too (b = 0, c = 3): difference -11.1 points, Newcombe
// 95% interval [-27.1, +3.6], exact McNemar p = 0.25. Before the fix: "GENERALIZES", passed true.
TEST(GroupVerdict, SmallHoldoutWithAnElevenPointLossIsInconclusive) {
  const GroupVerdict verdict = JudgeGeneralization(Paired(21, 0, 3, 3), VerdictRule{});
  EXPECT_EQ(verdict.label, "INCONCLUSIVE") << verdict.statement;
  EXPECT_EQ(verdict.decision, kInconclusive);
  EXPECT_FALSE(verdict.generalizes.has_value());
  ASSERT_EQ(verdict.comparisons.size(), 1u);
  const VerdictComparison& c = verdict.comparisons[0];
  EXPECT_NEAR(c.pair.difference, -3.0 / 27, 1e-12);
  EXPECT_NEAR(c.pair.lower, -0.271, 5e-4);
  EXPECT_NEAR(c.pair.upper, 0.036, 5e-4);
  EXPECT_NEAR(c.pair.p_value, 0.25, 1e-12);
  EXPECT_FALSE(c.non_inferior);
  EXPECT_FALSE(c.shown_beyond);
  EXPECT_EQ(c.outcome, "undecided");
  // The size that would decide: at d = -1/9 and 3/27 disagreeing (+ half a count each), showing the loss beyond
  // 1 point needs n = (1.95996 + 0.84162)^2 * v / (0.10111)^2 with v = 3.5/27 + 0.5/27 - (1/9)^2 = 0.13580
  // (python3 -c "from scipy.stats import norm; import math; v=4/27-1/81; print(math.ceil((norm.ppf(.975)+
  // norm.ppf(.8))**2*v/(1/9-0.01)**2))" -> 105).
  ASSERT_TRUE(verdict.images_to_decide.has_value());
  EXPECT_EQ(*verdict.images_to_decide, 105u);
  EXPECT_NE(verdict.statement.find("105 images would decide"), std::string::npos) << verdict.statement;
  const json j = VerdictJson(verdict, VerdictRule{});
  EXPECT_EQ(j["decision"], "inconclusive");
  EXPECT_TRUE(j["passed"].is_null());
  EXPECT_TRUE(j["generalizes"].is_null());
  EXPECT_EQ(j["images_to_decide"], 105);
  EXPECT_EQ(j["comparisons"][0]["non_inferior"], false);
  // The methods say the decision's simulated error rates (the figures of the test below).
  EXPECT_NE(verdict.test.find(kSimulatedErrorRates), std::string::npos) << verdict.test;
  EXPECT_EQ(j["error_rates"], kSimulatedErrorRates);
}

TEST(GroupVerdict, DecidedOnlyWhenTheIntervalShowsIt) {
  // 10,000 images, 0.2 points apart, 300 disagreements: the interval [-0.5, +0.1] lies above -1: shown within.
  const GroupVerdict within = JudgeGeneralization(Paired(7900, 140, 160, 1800), VerdictRule{});
  EXPECT_EQ(within.label, "GENERALIZES") << within.statement;
  EXPECT_TRUE(within.comparisons[0].non_inferior);
  // 1,000 images, 8 points worse: the loss is shown beyond the margin.
  const GroupVerdict loses = JudgeGeneralization(Paired(700, 10, 90, 200), VerdictRule{});
  EXPECT_EQ(loses.label, "DOES NOT GENERALIZE") << loses.statement;
  EXPECT_TRUE(loses.comparisons[0].shown_beyond);
  EXPECT_LT(loses.comparisons[0].beyond_upper, -0.01);
  EXPECT_EQ(VerdictJson(loses, VerdictRule{})["passed"], false);
}

struct Rates {
  double generalizes = 0, does_not = 0, inconclusive = 0;
};

// The verdict over `reps` holdouts of n images whose true 2x2 proportions give the reference 80% accuracy, the
// two models disagreeing on 10% of the images, and the candidate `difference` better (negative: worse).
Rates Simulate(size_t n, double difference, int reps, std::mt19937_64& rng) {
  const double disagree = 0.10, p_only_c = (disagree + difference) / 2, p_only_r = (disagree - difference) / 2;
  const double p_both = 0.80 - p_only_r;
  Rates rates;
  for (int rep = 0; rep < reps; ++rep) {
    // Multinomial counts by sequential binomials.
    size_t left = n;
    double mass = 1;
    auto draw = [&](double p) {
      const double share = std::min(1.0, std::max(0.0, p / mass));
      std::binomial_distribution<size_t> binomial(left, share);
      const size_t count = left > 0 ? binomial(rng) : 0;
      left -= count;
      mass -= p;
      return count;
    };
    const size_t both = draw(p_both), only_c = draw(p_only_c), only_r = draw(p_only_r);
    const GroupVerdict verdict = JudgeGeneralization(Paired(both, only_c, only_r, left), VerdictRule{});
    if (verdict.decision == kGeneralizes) rates.generalizes += 1.0 / reps;
    if (verdict.decision == kDoesNotGeneralize) rates.does_not += 1.0 / reps;
    if (verdict.decision == kInconclusive) rates.inconclusive += 1.0 / reps;
  }
  return rates;
}

// Seeded; 1,000 holdouts per cell (a rate of 0.025 is estimated to about +-0.01). The margin is 1 point.
TEST(GroupVerdict, ErrorRatesAtHoldoutSizesFrom25To10000) {
  std::mt19937_64 rng(56);
  constexpr std::array<size_t, 6> kSizes = {25, 100, 400, 1000, 2500, 10000};
  for (size_t n : kSizes) {
    const Rates equal = Simulate(n, 0.0, 1000, rng);       // truly as accurate
    const Rates boundary = Simulate(n, -0.01, 1000, rng);  // exactly the margin worse
    const Rates worse = Simulate(n, -0.03, 1000, rng);     // three times the margin worse
    std::printf("n %5zu | equal: G %.3f D %.3f I %.3f | -1 pt: G %.3f D %.3f I %.3f | -3 pts: G %.3f D %.3f I %.3f\n",
                n, equal.generalizes, equal.does_not, equal.inconclusive, boundary.generalizes, boundary.does_not,
                boundary.inconclusive, worse.generalizes, worse.does_not, worse.inconclusive);
    // Wrong claims: GENERALIZES for a model at (or beyond) the margin, DOES NOT for one as accurate.
    EXPECT_LE(boundary.generalizes, 0.045) << n;  // one-sided 2.5% by design, plus simulation error
    EXPECT_LE(worse.generalizes, 0.01) << n;
    EXPECT_LE(equal.does_not, 0.01) << n;
    if (n <= 100) EXPECT_GE(equal.inconclusive, 0.9) << n;  // a small holdout mostly cannot tell
  }
  // Large holdouts decide: 10,000 images show an equal model within 1 point most of the time (expected about 0.88
  // by the normal approximation) and a 3-point loss nearly always.
  const Rates equal = Simulate(10000, 0.0, 1000, rng);
  EXPECT_GE(equal.generalizes, 0.8);
  const Rates worse = Simulate(10000, -0.03, 1000, rng);
  EXPECT_GE(worse.does_not, 0.95);
}

}  // namespace
}  // namespace evalsuite::generalization
