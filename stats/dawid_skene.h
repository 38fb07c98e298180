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
};

struct LabelerRates {
  double sensitivity = 0.5;  // P(yes | positive)
  double specificity = 0.5;  // P(no | negative)
  std::size_t votes = 0;
  // |sensitivity + specificity - 1| (Raykar & Yu 2012): 0 for a labeler whose answer ignores the item.
  double spammer_score() const;
};

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

// EM from the items' raw yes-frequencies (the usual start, which orients "positive" as what most say yes to):
// M-step (prior, rates from the current posteriors), then E-step (posteriors), repeated. `items` and
// `labelers` give the sizes; a vote naming an index outside them throws std::out_of_range.
DawidSkeneResult DawidSkene(const std::vector<BinaryVote>& votes, std::size_t items, std::size_t labelers,
                            const DawidSkeneOptions& options = {});

// Per item: true when a strict majority of its votes say yes (false without votes).
std::vector<bool> MajorityVote(const std::vector<BinaryVote>& votes, std::size_t items);

}  // namespace evalsuite::stats
