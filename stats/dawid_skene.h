// Dawid-Skene (1979) for yes/no judgements: each item is truly positive or not, each labeler has a
// sensitivity (P(yes | positive)) and a specificity (P(no | negative)), and EM estimates both with the prior
// and each item's posterior probability of being positive. ImageNet-ReaL aggregated its raters this way:
// unlike a majority, a labeler who says yes to everything (a spammer: sensitivity + specificity = 1) carries
// no weight. Pure: votes in, estimates out.
#pragma once

#include <cstddef>
#include <vector>

namespace evalsuite::stats {

struct BinaryVote {
  std::size_t item = 0;
  std::size_t labeler = 0;
  bool yes = false;
};

struct DawidSkeneOptions {
  int max_iterations = 200;
  double tolerance = 1e-7;  // stop when no posterior moves more than this in one iteration
  // Rates are kept inside [floor, 1 - floor] so that one unanimous labeler cannot make a posterior exactly 0 or 1.
  double rate_floor = 1e-4;
  // A Beta(a, a) prior on every sensitivity and specificity (the M-step takes its mode: a - 1 pseudo-votes each
  // way). Without it (a = 1, plain maximum likelihood) a small store lets EM make one labeler perfect and every
  // posterior 0 or 1: in a seeded simulation of 36 items and 5 labelers with rates between 0.65 and 0.95, 186 stores
  // of 200 had a labeler with a rate at the floor and 1096 of 1882 items with 2 or 3 yes of 5 got a posterior of
  // 0.000 or 1.000; with Beta(2, 2) none did, and the posteriors' Brier score fell from 0.067 to 0.049 (at 100
  // items: 0.047 to 0.043). tests/stats/dawid_skene_test.cpp keeps the simulation.
  double rate_prior = 2;
};

struct LabelerRates {
  double sensitivity = 0.5;  // P(yes | positive)
  double specificity = 0.5;  // P(no | negative)
  std::size_t votes = 0;
  // |sensitivity + specificity - 1| (Raykar & Yu 2012): 0 for a labeler whose answer ignores the item.
  double spammer_score() const;
};

// Below this many items with votes, even with the prior a few items with split votes get a posterior of 0.000 or
// 1.000 (simulated, 5 labelers: 38 of 621 such items at 12 items, 11 of 931 at 20, none at 36): outputs warn.
constexpr std::size_t kDawidSkeneFewItems = 36;

// A labeler whose spammer score is below this is flagged as answering independently of the image.
constexpr double kSpammerScoreThreshold = 0.2;

struct DawidSkeneResult {
  std::vector<double> posterior;  // per item: P(positive | votes); prior for an item without votes
  std::vector<LabelerRates> labelers;
  std::vector<double> frequency;  // per item: share of yes votes (the initialization); NaN without votes
  double prior = 0.5;             // P(positive)
  int iterations = 0;             // EM iterations run (M-step then E-step)
  bool converged = false;
};

// EM (with the rates' prior, a MAP estimate) from the items' raw yes-frequencies (the usual start, which orients
// "positive" as what most say yes to): M-step (prior, rates from the current posteriors), then E-step (posteriors),
// repeated. `items` and `labelers` give the sizes; a vote naming an index outside them throws std::out_of_range.
DawidSkeneResult DawidSkene(const std::vector<BinaryVote>& votes, std::size_t items, std::size_t labelers,
                            const DawidSkeneOptions& options = {});

// Per item: true when a strict majority of its votes say yes (false without votes).
std::vector<bool> MajorityVote(const std::vector<BinaryVote>& votes, std::size_t items);

}  // namespace evalsuite::stats
