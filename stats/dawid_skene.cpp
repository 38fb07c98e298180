#include "stats/dawid_skene.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace evalsuite::stats {

double LabelerRates::spammer_score() const { return std::abs(sensitivity + specificity - 1.0); }

namespace {

void CheckVotes(const std::vector<BinaryVote>& votes, std::size_t items, std::size_t labelers) {
  for (const BinaryVote& v : votes) {
    if (v.item >= items || v.labeler >= labelers) {
      throw std::out_of_range("DawidSkene: vote for item " + std::to_string(v.item) + " by labeler " +
                              std::to_string(v.labeler) + " is outside " + std::to_string(items) + " items and " +
                              std::to_string(labelers) + " labelers");
    }
  }
}

double Clamp(double p, double floor) { return std::clamp(p, floor, 1.0 - floor); }

}  // namespace

DawidSkeneResult DawidSkene(const std::vector<BinaryVote>& votes, std::size_t items, std::size_t labelers,
                            const DawidSkeneOptions& options) {
  CheckVotes(votes, items, labelers);
  DawidSkeneResult result;
  std::vector<double> yes(items, 0), count(items, 0);
  for (const BinaryVote& v : votes) {
    yes[v.item] += v.yes ? 1 : 0;
    count[v.item] += 1;
  }
  result.frequency.assign(items, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < items; ++i) {
    if (count[i] > 0) result.frequency[i] = yes[i] / count[i];
  }
  result.labelers.assign(labelers, LabelerRates{});
  for (const BinaryVote& v : votes) ++result.labelers[v.labeler].votes;

  // Items without votes take no part in the M-step; their posterior is the prior.
  std::vector<double> t(items, 0.5);
  for (std::size_t i = 0; i < items; ++i) {
    if (count[i] > 0) t[i] = result.frequency[i];
  }
  std::size_t voted_items = 0;
  for (std::size_t i = 0; i < items; ++i) voted_items += count[i] > 0 ? 1 : 0;

  const double floor = options.rate_floor;
  if (!(options.rate_prior >= 1)) throw std::invalid_argument("DawidSkene: the rates' Beta(a, a) prior needs a >= 1");
  const double pseudo = options.rate_prior - 1;  // the Beta(a, a) mode: a - 1 pseudo-votes each way
  for (int iteration = 1; iteration <= std::max(1, options.max_iterations); ++iteration) {
    // M-step.
    double positive_mass = 0;
    for (std::size_t i = 0; i < items; ++i) {
      if (count[i] > 0) positive_mass += t[i];
    }
    result.prior = voted_items > 0 ? Clamp(positive_mass / static_cast<double>(voted_items), floor) : 0.5;
    std::vector<double> yes_pos(labelers, 0), pos(labelers, 0), no_neg(labelers, 0), neg(labelers, 0);
    for (const BinaryVote& v : votes) {
      pos[v.labeler] += t[v.item];
      neg[v.labeler] += 1 - t[v.item];
      if (v.yes) {
        yes_pos[v.labeler] += t[v.item];
      } else {
        no_neg[v.labeler] += 1 - t[v.item];
      }
    }
    for (std::size_t j = 0; j < labelers; ++j) {
      LabelerRates& r = result.labelers[j];
      r.sensitivity = pos[j] + 2 * pseudo > 0 ? Clamp((yes_pos[j] + pseudo) / (pos[j] + 2 * pseudo), floor) : 0.5;
      r.specificity = neg[j] + 2 * pseudo > 0 ? Clamp((no_neg[j] + pseudo) / (neg[j] + 2 * pseudo), floor) : 0.5;
    }
    // E-step, in logs: an item with 30 votes multiplies 30 rates.
    std::vector<double> log_pos(items, std::log(result.prior)), log_neg(items, std::log(1 - result.prior));
    for (const BinaryVote& v : votes) {
      const LabelerRates& r = result.labelers[v.labeler];
      log_pos[v.item] += std::log(v.yes ? r.sensitivity : 1 - r.sensitivity);
      log_neg[v.item] += std::log(v.yes ? 1 - r.specificity : r.specificity);
    }
    double largest_move = 0;
    for (std::size_t i = 0; i < items; ++i) {
      const double posterior = 1 / (1 + std::exp(log_neg[i] - log_pos[i]));
      largest_move = std::max(largest_move, std::abs(posterior - t[i]));
      t[i] = posterior;
    }
    result.iterations = iteration;
    if (largest_move < options.tolerance) {
      result.converged = true;
      break;
    }
  }
  result.posterior = t;
  return result;
}

std::vector<bool> MajorityVote(const std::vector<BinaryVote>& votes, std::size_t items) {
  CheckVotes(votes, items, std::numeric_limits<std::size_t>::max());
  std::vector<int> margin(items, 0);
  for (const BinaryVote& v : votes) margin[v.item] += v.yes ? 1 : -1;
  std::vector<bool> majority(items);
  for (std::size_t i = 0; i < items; ++i) majority[i] = margin[i] > 0;
  return majority;
}

}  // namespace evalsuite::stats
