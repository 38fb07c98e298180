// Seeded simulations of sequential comparisons (issue 28): the error rate under repeated looks, the naive rule's
// inflation, the average sample number against the fixed design of the same power. TTA is lognormal, and runs
// whose TTA lies beyond an epoch budget are censored at the budget, as a study's runs that never reach are.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "stats/sequential_comparison.h"
#include "stats/survival.h"

namespace evalsuite::stats {
namespace {

struct TtaModel {
  double median = 100;
  double sigma = 0.3;   // of log TTA: a CoV of about 30%
  double budget = 140;  // runs beyond it are censored there
  SurvivalObservation Draw(std::mt19937_64& engine, double speedup = 1) const {
    std::normal_distribution<double> noise(0, sigma);
    const double tta = median * speedup * std::exp(noise(engine));
    return tta <= budget ? SurvivalObservation{tta, true} : SurvivalObservation{budget, false};
  }
};

std::vector<SurvivalObservation> DrawRuns(const TtaModel& model, int n, std::mt19937_64& engine, double speedup = 1) {
  std::vector<SurvivalObservation> runs;
  for (int i = 0; i < n; ++i) runs.push_back(model.Draw(engine, speedup));
  return runs;
}

constexpr double kAlpha = 0.05;

TEST(SequentialSimulationTest, NullStudiesDeclareADifferenceAtMostAlphaPlusThreeStandardErrors) {
  constexpr int kStudies = 10000;
  const TtaModel model;  // about 13% of runs censored
  const SequentialComparisonDesign design(3, 20, kAlpha);
  std::mt19937_64 engine(28);
  int wrong = 0, naive_wrong = 0, censored = 0, runs = 0;
  for (int s = 0; s < kStudies; ++s) {
    const auto a = DrawRuns(model, 20, engine), b = DrawRuns(model, 20, engine);
    for (const auto& o : a) censored += o.event ? 0 : 1;
    runs += 20;
    const SequentialDecision d = design.Decide(a, b);
    wrong += d.result != "no difference shown" ? 1 : 0;
    // The naive rule: the same log-rank test after every block, stop at the first p < 0.05.
    for (int n = 3; n <= 20; ++n) {
      const LogRankResult t = LogRankTest({a.begin(), a.begin() + n}, {b.begin(), b.begin() + n});
      if (t.permutation_p_value < kAlpha) {
        ++naive_wrong;
        break;
      }
    }
  }
  const double rate = static_cast<double>(wrong) / kStudies, naive = static_cast<double>(naive_wrong) / kStudies;
  const double se = std::sqrt(kAlpha * (1 - kAlpha) / kStudies);
  std::printf(
      "null: %d studies, 18 looks (3..20 runs per entry), %.1f%% of runs censored: sequential false "
      "positives %.4f, naive 'stop at p < 0.05' %.4f (alpha %.2f, SE %.4f)\n",
      kStudies, 100.0 * censored / runs, rate, naive, kAlpha, se);
  EXPECT_LE(rate, kAlpha + 3 * se);
  EXPECT_GT(naive, kAlpha + 3 * se);  // peeking without a boundary inflates the error: why the method matters
}

// Under a true 20% speed-up (A's TTA 0.8 x B's), the fixed design that reaches 80% power against the sequential
// design with the same power: the sequential one's average runs per entry is lower.
TEST(SequentialSimulationTest, UnderTwentyPercentSpeedupSequentialNeedsFewerRunsOnAverage) {
  constexpr int kStudies = 2000;
  TtaModel model;
  model.sigma = 0.2;
  model.budget = 150;
  auto fixed_power = [&](int n) {
    std::mt19937_64 engine(2800 + n);
    int shown = 0;
    for (int s = 0; s < kStudies; ++s) {
      const LogRankResult t = LogRankTest(DrawRuns(model, n, engine, 0.8), DrawRuns(model, n, engine));
      shown += (t.permutation_z >= 1.959963984540054) ? 1 : 0;
    }
    return static_cast<double>(shown) / kStudies;
  };
  int fixed_n = 2;
  while (fixed_power(fixed_n) < 0.80) ++fixed_n;
  // The sequential design: the smallest max_runs whose power reaches 80% too (looks from 3 runs per entry).
  struct Outcome {
    double power = 0, average_runs = 0;
  };
  auto sequential = [&](int max_runs) {
    const SequentialComparisonDesign design(3, max_runs, kAlpha);
    std::mt19937_64 engine(9100 + max_runs);
    Outcome o;
    for (int s = 0; s < kStudies; ++s) {
      const SequentialDecision d =
          design.Decide(DrawRuns(model, max_runs, engine, 0.8), DrawRuns(model, max_runs, engine));
      o.power += d.result == "A faster" ? 1 : 0;
      o.average_runs += d.runs_per_entry;
    }
    o.power /= kStudies;
    o.average_runs /= kStudies;
    return o;
  };
  int max_runs = fixed_n;
  Outcome seq = sequential(max_runs);
  while (seq.power < 0.80) seq = sequential(++max_runs);
  std::printf(
      "20%% speed-up (CoV about 20%%): fixed design needs %d runs per entry for 80%% power; the sequential "
      "design (looks 3..%d) has power %.3f and stops after %.2f runs per entry on average\n",
      fixed_n, max_runs, seq.power, seq.average_runs);
  EXPECT_LT(seq.average_runs, fixed_n);
}

}  // namespace
}  // namespace evalsuite::stats
