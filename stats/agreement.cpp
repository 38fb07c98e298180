#include "stats/agreement.h"

#include <limits>
#include <map>

#include "stats/not_a_number.h"

namespace evalsuite::stats {
namespace {

double Kappa(double observed, double expected) {
  if (expected >= 1) {
    return kNaN;  // chance agreement is perfect: kappa is 0/0
  }
  return (observed - expected) / (1 - expected);
}

}  // namespace

KappaResult CohenKappa(const std::vector<std::pair<int, int>>& paired_labels) {
  KappaResult result;
  result.items = paired_labels.size();
  if (paired_labels.empty()) {
    result.kappa = result.observed_agreement = result.expected_agreement = kNaN;
    return result;
  }
  std::map<int, double> marginal_a;
  std::map<int, double> marginal_b;
  double agree = 0;
  for (const auto& [a, b] : paired_labels) {
    marginal_a[a] += 1;
    marginal_b[b] += 1;
    if (a == b) {
      agree += 1;
    }
  }
  const double n = static_cast<double>(paired_labels.size());
  double expected = 0;
  for (const auto& [label, count] : marginal_a) {
    const auto it = marginal_b.find(label);
    if (it != marginal_b.end()) {
      expected += (count / n) * (it->second / n);
    }
  }
  result.observed_agreement = agree / n;
  result.expected_agreement = expected;
  result.kappa = Kappa(result.observed_agreement, expected);
  return result;
}

KappaResult FleissKappa(const std::vector<std::vector<std::size_t>>& counts) {
  KappaResult result;
  std::vector<double> category_totals;
  double total_ratings = 0;
  double sum_item_agreement = 0;
  for (const auto& item : counts) {
    double m = 0;
    double sum_sq = 0;
    for (std::size_t c : item) {
      m += static_cast<double>(c);
      sum_sq += static_cast<double>(c) * static_cast<double>(c);
    }
    if (m < 2) {
      continue;  // one rating agrees with nobody
    }
    ++result.items;
    // Share of the item's rater pairs that agree, with the item's own number of raters.
    sum_item_agreement += (sum_sq - m) / (m * (m - 1));
    if (category_totals.size() < item.size()) {
      category_totals.resize(item.size(), 0);
    }
    for (std::size_t j = 0; j < item.size(); ++j) {
      category_totals[j] += static_cast<double>(item[j]);
    }
    total_ratings += m;
  }
  if (result.items == 0) {
    result.kappa = result.observed_agreement = result.expected_agreement = kNaN;
    return result;
  }
  double expected = 0;
  for (double total : category_totals) {
    expected += (total / total_ratings) * (total / total_ratings);
  }
  result.observed_agreement = sum_item_agreement / static_cast<double>(result.items);
  result.expected_agreement = expected;
  result.kappa = Kappa(result.observed_agreement, expected);
  return result;
}

}  // namespace evalsuite::stats
