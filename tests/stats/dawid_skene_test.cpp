// Dawid-Skene: one EM step computed by hand, and seeded simulations of labelers with known rates.
#include "stats/dawid_skene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// 4 items, labelers A B C: item 0 yyy, 1 yyn, 2 ynn, 3 nny. Start: frequencies 1, 2/3, 1/3, 1/3.
// M-step: prior 7/12; A: sensitivity (1 + 2/3 + 1/3) / (7/3) = 6/7, specificity (2/3) / (5/3) = 2/5;
// B: 5/7 and 4/5; C: 4/7 and 3/5. E-step, item 0: P(+) = 7/12 * 6/7 * 5/7 * 4/7 = 10/49,
// P(-) = 5/12 * 3/5 * 1/5 * 2/5 = 1/50, posterior 500/549; item 1: 15/98 vs 3/100 = 250/299;
// item 2: 3/49 vs 3/25 = 25/74; item 3: 2/147 vs 4/75 = 25/123.
TEST(DawidSkeneTest, OneEmStepByHand) {
  const std::vector<BinaryVote> votes = {{0, 0, true},  {0, 1, true},  {0, 2, true},  {1, 0, true},
                                         {1, 1, true},  {1, 2, false}, {2, 0, true},  {2, 1, false},
                                         {2, 2, false}, {3, 0, false}, {3, 1, false}, {3, 2, true}};
  DawidSkeneOptions options;
  options.max_iterations = 1;
  options.rate_prior = 1;  // plain maximum likelihood, as Dawid and Skene
  const DawidSkeneResult r = DawidSkene(votes, 4, 3, options);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_NEAR(r.prior, 7.0 / 12, 1e-12);
  EXPECT_NEAR(r.labelers[0].sensitivity, 6.0 / 7, 1e-12);
  EXPECT_NEAR(r.labelers[0].specificity, 2.0 / 5, 1e-12);
  EXPECT_NEAR(r.labelers[1].sensitivity, 5.0 / 7, 1e-12);
  EXPECT_NEAR(r.labelers[1].specificity, 4.0 / 5, 1e-12);
  EXPECT_NEAR(r.labelers[2].sensitivity, 4.0 / 7, 1e-12);
  EXPECT_NEAR(r.labelers[2].specificity, 3.0 / 5, 1e-12);
  EXPECT_NEAR(r.posterior[0], 500.0 / 549, 1e-12);
  EXPECT_NEAR(r.posterior[1], 250.0 / 299, 1e-12);
  EXPECT_NEAR(r.posterior[2], 25.0 / 74, 1e-12);
  EXPECT_NEAR(r.posterior[3], 25.0 / 123, 1e-12);
  EXPECT_NEAR(r.frequency[1], 2.0 / 3, 1e-12);
  EXPECT_EQ(r.labelers[2].votes, 4u);

  // The default Beta(2, 2) prior adds one pseudo-vote each way: A's sensitivity (2 + 1) / (7/3 + 2) = 9/13,
  // specificity (2/3 + 1) / (5/3 + 2) = 5/11.
  options.rate_prior = 2;
  const DawidSkeneResult map = DawidSkene(votes, 4, 3, options);
  EXPECT_NEAR(map.labelers[0].sensitivity, 9.0 / 13, 1e-12);
  EXPECT_NEAR(map.labelers[0].specificity, 5.0 / 11, 1e-12);
  EXPECT_EQ(DawidSkeneOptions{}.rate_prior, 2);
  options.rate_prior = 0.5;
  EXPECT_THROW(DawidSkene(votes, 4, 3, options), std::invalid_argument);
}

// Issue 34 item 11: a small store (36 items, 5 labelers who judge every item, rates drawn between 0.65 and 0.95,
// 70% of items correct). Plain maximum likelihood made one labeler perfect and every posterior 0 or 1 (an item
// with 2 yes and 3 no got 1.000). 200 seeded stores per size: with the default prior no labeler's rate reaches
// 0.999, no item with 2 or 3 yes of 5 gets a posterior outside [0.001, 0.999], and the posteriors' Brier score
// against the truth is lower than plain maximum likelihood's. At 100 items too; at 12 and 20 a few split items
// still get 0 or 1 (38 of 621 and 11 of 931, against 585 and 754 without the prior), which is why label
// agreement warns below 36 items.
TEST(DawidSkeneTest, SmallStoresKeepLabelersImperfectAndSplitItemsUncertain) {
  for (std::size_t items : {12u, 20u, 36u, 100u}) {
    std::mt19937_64 rng(34011 + items);
    std::uniform_real_distribution<double> rate(0.65, 0.95);
    int stores_with_perfect_labeler_ml = 0, stores_with_perfect_labeler = 0;
    std::size_t split_items = 0, split_extreme_ml = 0, split_extreme = 0;
    double brier_ml = 0, brier = 0;
    constexpr int kStores = 200;
    DawidSkeneOptions ml;
    ml.rate_prior = 1;
    for (int store = 0; store < kStores; ++store) {
      std::vector<double> sensitivity(5), specificity(5);
      for (std::size_t j = 0; j < 5; ++j) {
        sensitivity[j] = rate(rng);
        specificity[j] = rate(rng);
      }
      std::vector<bool> truth(items);
      std::vector<BinaryVote> votes;
      std::vector<int> yes(items, 0);
      for (std::size_t i = 0; i < items; ++i) {
        truth[i] = std::bernoulli_distribution(0.7)(rng);
        for (std::size_t j = 0; j < 5; ++j) {
          const bool says_yes = std::bernoulli_distribution(truth[i] ? sensitivity[j] : 1 - specificity[j])(rng);
          votes.push_back({i, j, says_yes});
          yes[i] += says_yes ? 1 : 0;
        }
      }
      const DawidSkeneResult with_prior = DawidSkene(votes, items, 5);
      const DawidSkeneResult plain = DawidSkene(votes, items, 5, ml);
      auto perfect = [](const DawidSkeneResult& r) {
        return std::any_of(r.labelers.begin(), r.labelers.end(),
                           [](const LabelerRates& l) { return l.sensitivity >= 0.999 || l.specificity >= 0.999; });
      };
      stores_with_perfect_labeler_ml += perfect(plain) ? 1 : 0;
      stores_with_perfect_labeler += perfect(with_prior) ? 1 : 0;
      for (std::size_t i = 0; i < items; ++i) {
        brier_ml += std::pow(plain.posterior[i] - truth[i], 2);
        brier += std::pow(with_prior.posterior[i] - truth[i], 2);
        if (yes[i] == 2 || yes[i] == 3) {
          ++split_items;
          auto extreme = [](double p) { return p < 0.001 || p > 0.999; };
          split_extreme_ml += extreme(plain.posterior[i]) ? 1 : 0;
          split_extreme += extreme(with_prior.posterior[i]) ? 1 : 0;
        }
      }
    }
    brier_ml /= static_cast<double>(kStores * items);
    brier /= static_cast<double>(kStores * items);
    std::cout << items << " items: stores with a perfect labeler " << stores_with_perfect_labeler_ml << " -> "
              << stores_with_perfect_labeler << " of " << kStores << "; split items at 0 or 1 " << split_extreme_ml
              << " -> " << split_extreme << " of " << split_items << "; Brier " << brier_ml << " -> " << brier << "\n";
    EXPECT_EQ(stores_with_perfect_labeler, 0) << items;
    if (items >= 36) {
      EXPECT_EQ(split_extreme, 0u) << items;
    } else {  // 12 and 20 items: a few remain (label agreement warns below 36 items)
      EXPECT_LT(split_extreme * 10, split_extreme_ml) << items;
    }
    EXPECT_LT(brier, brier_ml) << items;
    if (items == 36) EXPECT_GT(stores_with_perfect_labeler_ml, kStores / 2);  // the failure the prior fixes
  }
}

struct Simulation {
  std::vector<bool> truth;
  std::vector<BinaryVote> votes;
  std::vector<double> sensitivity, specificity;
};

// 4000 items (60% positive), 10 labelers, each item judged by 6 of them; labeler 9 says yes 70% of the time
// whatever the image.
Simulation Simulate(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Simulation s;
  s.sensitivity = {0.95, 0.9, 0.85, 0.8, 0.9, 0.75, 0.7, 0.92, 0.88, 0.7};
  s.specificity = {0.9, 0.85, 0.95, 0.7, 0.65, 0.8, 0.9, 0.75, 0.85, 0.3};
  std::bernoulli_distribution positive(0.6);
  std::vector<std::size_t> order(10);
  for (std::size_t i = 0; i < 4000; ++i) {
    s.truth.push_back(positive(rng));
    for (std::size_t j = 0; j < 10; ++j) order[j] = j;
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k = 0; k < 6; ++k) {
      const std::size_t j = order[k];
      const double p_yes = s.truth[i] ? s.sensitivity[j] : 1 - s.specificity[j];
      s.votes.push_back({i, j, std::bernoulli_distribution(p_yes)(rng)});
    }
  }
  return s;
}

TEST(DawidSkeneTest, SimulatedLabelersRatesWithinTolerance_SpammerFound_BeatsMajority) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    const Simulation s = Simulate(seed);
    const DawidSkeneResult r = DawidSkene(s.votes, s.truth.size(), 10);
    EXPECT_TRUE(r.converged) << seed;
    EXPECT_NEAR(r.prior, 0.6, 0.03) << seed;
    // ~1440 positive and ~960 negative votes per labeler: a standard error of at most 0.015 on each rate.
    for (std::size_t j = 0; j < 10; ++j) {
      EXPECT_NEAR(r.labelers[j].sensitivity, s.sensitivity[j], 0.05) << "seed " << seed << " labeler " << j;
      EXPECT_NEAR(r.labelers[j].specificity, s.specificity[j], 0.05) << "seed " << seed << " labeler " << j;
      EXPECT_EQ(r.labelers[j].spammer_score() < kSpammerScoreThreshold, j == 9) << "seed " << seed << " " << j;
    }
    // Majority, checked by counting on the same data, and the error rates of both rules against the truth.
    const std::vector<bool> majority = MajorityVote(s.votes, s.truth.size());
    std::vector<int> yes(s.truth.size(), 0);
    for (const BinaryVote& v : s.votes) yes[v.item] += v.yes ? 1 : 0;
    int majority_errors = 0, ds_errors = 0;
    double calibrated_mass = 0, calibrated_true = 0;
    for (std::size_t i = 0; i < s.truth.size(); ++i) {
      ASSERT_EQ(majority[i], yes[i] >= 4) << i;  // 6 votes each: strictly more than 3
      majority_errors += majority[i] != s.truth[i];
      ds_errors += (r.posterior[i] > 0.5) != s.truth[i];
      if (r.posterior[i] > 0.2 && r.posterior[i] < 0.8) {
        calibrated_mass += r.posterior[i];
        calibrated_true += s.truth[i];
      }
    }
    EXPECT_LT(ds_errors, majority_errors) << seed;
    EXPECT_LT(ds_errors, 0.05 * s.truth.size()) << seed;
    // The posteriors mean what they say where they are uncertain: expected and actual positives agree.
    EXPECT_NEAR(calibrated_true, calibrated_mass, 3 * std::sqrt(calibrated_mass) + 3) << seed;
  }
}

TEST(DawidSkeneTest, ItemsWithoutVotesKeepThePriorAndBadIndicesThrow) {
  const DawidSkeneResult r = DawidSkene({{0, 0, true}, {0, 1, true}, {1, 0, false}, {1, 1, false}}, 3, 2);
  EXPECT_NEAR(r.posterior[2], r.prior, 1e-12);
  EXPECT_TRUE(std::isnan(r.frequency[2]));
  EXPECT_THROW(DawidSkene({{5, 0, true}}, 3, 2), std::out_of_range);
  EXPECT_EQ(MajorityVote({{0, 0, true}, {0, 1, false}}, 1), std::vector<bool>{false});  // a tie is not a majority
}

}  // namespace
}  // namespace evalsuite::stats
