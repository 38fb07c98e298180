// The selection-frequency correction (Engstrom et al. 2020): the EM fit by hand, and its promise simulated with
// known truth. Each simulated holdout is built as `holdout freeze --sampling matched-frequency` builds one: a
// candidate population with true selection frequencies s, pass 1 gives each candidate 10 votes, and 1,000 images
// are drawn bin by bin of the OBSERVED pass-1 frequency to the target shares; a model gets image i right with
// probability a(s_i); pass 2 gives every image n fresh votes. The truth is what the correction promises:
// sum_b target_b x (share right among the holdout's images whose TRUE frequency is in bin b), over the bins that
// hold images. Three scenarios (accuracy linear in s, a steep logistic, frequencies in two tight clusters at
// 0.3 and 0.7 with a step in accuracy) at 2, 3, 5, 10 and 40 votes per image.
#include "stats/selection_frequency_correction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace evalsuite::stats {
namespace {

// Two images right with 2 of 2 and 0 of 2 votes, one wrong with 1 of 2. One EM step from uniform weights w_j = 1/G:
// an image's responsibility is L(s_j) / sum_j L(s_j), so the step's weights are the mean of the rows normalized.
TEST(SelectionFrequencyCorrectionTest, OneEmStepByHand) {
  const std::vector<ImageVotes> images = {{2, 2, true}, {2, 0, true}};
  const std::vector<double> w = FitFrequencyDistribution(images, 1);
  ASSERT_EQ(w.size(), kFrequencyGridPoints);
  double sum_sq = 0, sum_cq = 0;
  for (std::size_t j = 0; j < kFrequencyGridPoints; ++j) {
    const double s = (j + 0.5) / kFrequencyGridPoints;
    sum_sq += s * s;
    sum_cq += (1 - s) * (1 - s);
  }
  for (std::size_t j : {0u, 17u, 49u}) {
    const double s = (j + 0.5) / kFrequencyGridPoints;
    EXPECT_NEAR(w[j], 0.5 * s * s / sum_sq + 0.5 * (1 - s) * (1 - s) / sum_cq, 1e-12) << j;
  }
  // No images: the uniform start.
  EXPECT_NEAR(FitFrequencyDistribution({}, 5)[3], 1.0 / kFrequencyGridPoints, 1e-15);

  // With 1 vote per image the answer is withheld, with its reason; the naive and observed figures remain.
  const SelectionCorrection few = CorrectForSelectionFrequency({{1, 1, true}, {1, 0, false}}, {0, 0, 0, 0, 1});
  EXPECT_TRUE(std::isnan(few.estimate));
  EXPECT_NE(few.withheld.find("needs at least 10"), std::string::npos) << few.withheld;
  EXPECT_DOUBLE_EQ(few.observed, 0.5);
  EXPECT_DOUBLE_EQ(few.naive, 1.0);  // bin [.8, 1] holds only the right image
  EXPECT_FALSE(CorrectForSelectionFrequency({}, {1, 0, 0, 0, 0}).withheld.empty());
}

struct Scenario {
  std::string name;
  std::vector<std::array<double, 3>> population;  // Beta(a, b) components and their sizes
  std::function<double(double)> accuracy;
  std::array<double, kFrequencyBins> target;
};

double Beta(double a, double b, std::mt19937_64& rng) {
  std::gamma_distribution<double> ga(a, 1.0), gb(b, 1.0);
  const double x = ga(rng);
  return x / (x + gb(rng));
}

struct Replicate {
  double truth = 0;
  SelectionCorrection correction;
  double unchecked = 0;  // sum_b target_b a_b whether or not the estimate is withheld
};

Replicate Simulate(const Scenario& scenario, int votes, std::mt19937_64& rng) {
  std::vector<double> population;
  for (const auto& [a, b, size] : scenario.population) {
    for (int i = 0; i < static_cast<int>(size); ++i) population.push_back(Beta(a, b, rng));
  }
  std::array<std::vector<double>, kFrequencyBins> by_pass1_bin;
  for (double s : population) {
    std::binomial_distribution<int> pass1(10, s);
    by_pass1_bin[static_cast<std::size_t>(FrequencyBin(pass1(rng) / 10.0))].push_back(s);
  }
  std::vector<double> holdout;
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    std::vector<double>& pool = by_pass1_bin[b];
    const auto want = static_cast<std::size_t>(scenario.target[b] * 1000);
    for (std::size_t k = 0; k < want && k < pool.size(); ++k) {  // partial Fisher-Yates
      std::swap(pool[k], pool[k + rng() % (pool.size() - k)]);
      holdout.push_back(pool[k]);
    }
  }
  Replicate r;
  std::vector<ImageVotes> images;
  std::array<double, kFrequencyBins> right{}, count{};
  std::uniform_real_distribution<double> unit(0, 1);
  for (double s : holdout) {
    const bool is_right = unit(rng) < scenario.accuracy(s);
    std::binomial_distribution<int> pass2(votes, s);
    images.push_back({votes, pass2(rng), is_right});
    const auto b = static_cast<std::size_t>(FrequencyBin(s));
    count[b] += 1;
    right[b] += is_right ? 1 : 0;
  }
  double truth = 0, weight = 0, unchecked = 0, unchecked_weight = 0;
  r.correction = CorrectForSelectionFrequency(images, scenario.target);
  for (std::size_t b = 0; b < kFrequencyBins; ++b) {
    if (count[b] > 0 && scenario.target[b] > 0) {
      truth += scenario.target[b] * right[b] / count[b];
      weight += scenario.target[b];
    }
    if (!std::isnan(r.correction.bin_accuracy[b]) && scenario.target[b] > 0) {
      unchecked += scenario.target[b] * r.correction.bin_accuracy[b];
      unchecked_weight += scenario.target[b];
    }
  }
  r.truth = truth / weight;
  r.unchecked = unchecked / unchecked_weight;
  return r;
}

struct Bias {
  double mean = 0, se = 0;
};

Bias MeanAndSe(const std::vector<double>& d) {
  double mean = 0, ss = 0;
  for (double x : d) mean += x;
  mean /= static_cast<double>(d.size());
  for (double x : d) ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / static_cast<double>(d.size() - 1) / static_cast<double>(d.size()))};
}

// The promise: at 10 and 40 votes the corrected accuracy's bias is within 3 simulation standard errors of 0
// (and within 2 points); at 2, 3 and 5 votes it is withheld (why: the next test), and its bias is printed all
// the same. The naive bin-reweighted
// estimate's bias is printed beside it. 40 holdouts per scenario and vote count.
TEST(SelectionFrequencyCorrectionTest, BiasWithinThreeStandardErrorsFromTenVotesWithheldBelow) {
  const std::vector<Scenario> scenarios = {
      {"linear",
       {{1, 4, 1000}, {3, 3, 1400}, {6, 1.5, 2600}},
       [](double s) { return 0.2 + 0.7 * s; },
       {0.05, 0.1, 0.2, 0.3, 0.35}},
      {"steep",
       {{1, 4, 1000}, {3, 3, 1400}, {6, 1.5, 2600}},
       [](double s) { return 1 / (1 + std::exp(-12 * (s - 0.6))); },
       {0.05, 0.1, 0.2, 0.3, 0.35}},
      {"clusters",
       {{60, 140, 3000}, {140, 60, 3000}},
       [](double s) { return s < 0.5 ? 0.3 : 0.9; },
       {0, 0.5, 0, 0.5, 0}},
  };
  constexpr int kReplicates = 40;
  for (const Scenario& scenario : scenarios) {
    for (int votes : {2, 3, 5, 10, 40}) {
      std::mt19937_64 rng(20260527 + votes * 7919 + scenario.name.size());
      std::vector<double> corrected, naive, unchecked;
      for (int r = 0; r < kReplicates; ++r) {
        const Replicate rep = Simulate(scenario, votes, rng);
        naive.push_back(rep.correction.naive - rep.truth);
        unchecked.push_back(rep.unchecked - rep.truth);
        if (votes >= kMinMedianPass2Votes) {
          ASSERT_TRUE(rep.correction.withheld.empty()) << rep.correction.withheld;
          corrected.push_back(rep.correction.estimate - rep.truth);
        } else {
          EXPECT_TRUE(std::isnan(rep.correction.estimate));
          EXPECT_FALSE(rep.correction.withheld.empty());
        }
      }
      const Bias n = MeanAndSe(naive), u = MeanAndSe(unchecked);
      std::cout << scenario.name << " " << votes << " votes: naive bias " << n.mean << " (se " << n.se
                << "), corrected bias " << u.mean << " (se " << u.se << ")"
                << (votes < kMinMedianPass2Votes ? " withheld" : "") << "\n";
      if (votes >= kMinMedianPass2Votes) {
        const Bias c = MeanAndSe(corrected);
        EXPECT_LE(std::abs(c.mean), 3 * c.se) << scenario.name << " " << votes;
        EXPECT_LE(std::abs(c.mean), 0.02) << scenario.name << " " << votes;
      }
    }
  }
}

// Why it is withheld below 10 votes: below, the votes do not determine the answer well enough. Frequencies at
// 0.3 and 0.7 (half each) and at 0.1, 0.5, 0.9 (1/8, 3/4, 1/8) share their first three moments, so n <= 3 votes
// per image fall alike on both. Holdout X: the model is right on the first kind and wrong on the second; holdout
// Y the other way round. With equal target shares on the five bins the truths are 0.4 and 0.6, yet at 2 and 3
// votes the fits (40,000 images each) come out within 0.03 of each other, so one misses by 0.08 or more; at 5
// votes the fourth and fifth moments tell them apart, but not far enough (misses of 8 points); at 10 and 40
// votes both are within 2 points.
TEST(SelectionFrequencyCorrectionTest, FewVotesCannotTellApartHoldoutsWithDifferentTruths) {
  const std::array<double, kFrequencyBins> uniform = {0.2, 0.2, 0.2, 0.2, 0.2};
  auto fit = [&](int votes, bool right_on_pair, std::mt19937_64& rng) {
    std::vector<ImageVotes> images;
    for (int i = 0; i < 40000; ++i) {
      const bool pair_kind = i % 2 == 0;
      const double s = pair_kind ? (i % 4 == 0 ? 0.3 : 0.7)
                                 : (i % 16 == 1   ? 0.1
                                    : i % 16 == 3 ? 0.9
                                                  : 0.5);  // 1/8, 1/8, 3/4 of the odd i
      std::binomial_distribution<int> pass2(votes, s);
      images.push_back({votes, pass2(rng), pair_kind == right_on_pair});
    }
    const SelectionCorrection c = CorrectForSelectionFrequency(images, uniform);
    double sum = 0, weight = 0;
    for (std::size_t b = 0; b < kFrequencyBins; ++b) {
      if (std::isnan(c.bin_accuracy[b])) continue;
      sum += uniform[b] * c.bin_accuracy[b];
      weight += uniform[b];
    }
    return sum / weight;
  };
  for (int votes : {2, 3, 5, 10, 40}) {
    std::mt19937_64 rng(36 + votes);
    const double x = fit(votes, true, rng), y = fit(votes, false, rng);  // truths 0.4 and 0.6
    std::cout << votes << " votes: holdout X (truth 0.4) " << x << ", holdout Y (truth 0.6) " << y << "\n";
    if (votes < 4) EXPECT_LT(std::abs(x - y), 0.03) << votes;
    if (votes < kMinMedianPass2Votes) {
      EXPECT_GE(std::max(std::abs(x - 0.4), std::abs(y - 0.6)), 0.08) << votes;
    } else {
      EXPECT_NEAR(x, 0.4, 0.02) << votes;
      EXPECT_NEAR(y, 0.6, 0.02) << votes;
    }
  }
}

}  // namespace
}  // namespace evalsuite::stats
