#include "stats/quantile.h"

#include <algorithm>
#include <cmath>

namespace evalsuite::stats {

double SampleQuantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double h = (static_cast<double>(values.size()) - 1) * std::clamp(q, 0.0, 1.0);
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

}  // namespace evalsuite::stats
