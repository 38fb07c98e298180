// Agreement between labelers: Cohen's kappa for two raters, Fleiss' kappa for several, each with the number
// of items it rests on. Labels are small integers (category ids); the caller decides what they mean.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace evalsuite::stats {

struct KappaResult {
  double kappa = 0;       // NaN when undefined (no items, or chance agreement is 1)
  std::size_t items = 0;  // items the value rests on
  double observed_agreement = 0;
  double expected_agreement = 0;
};

// One pair (rater A's label, rater B's label) per item both rated.
KappaResult CohenKappa(const std::vector<std::pair<int, int>>& paired_labels);

// counts[item][category] = how many raters put the item in that category. Items with fewer than two ratings
// are left out; items may have different numbers of raters (Fleiss' formula per item with its own m).
KappaResult FleissKappa(const std::vector<std::vector<std::size_t>>& counts);

}  // namespace evalsuite::stats
