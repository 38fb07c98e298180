#include "stats/descriptive.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

#include "stats/not_a_number.h"

namespace evalsuite::stats {
namespace {

double Mean(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

// Two passes (mean first, then squared deviations) keep the rounding error small for TTA-sized values that
// differ by a few percent, where the one-pass sum-of-squares formula cancels badly.
double SampleStddev(const std::vector<double>& values, double mean) {
  if (values.size() < 2) {
    return kNaN;
  }
  double sum_sq = 0;
  for (double v : values) {
    sum_sq += (v - mean) * (v - mean);
  }
  return std::sqrt(sum_sq / static_cast<double>(values.size() - 1));
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) {
    return kNaN;
  }
  const auto mid = static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[static_cast<std::size_t>(mid)];
  if (values.size() % 2 == 1) {
    return upper;
  }
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

Summary Summarize(const std::vector<double>& values) {
  Summary s;
  s.n = values.size();
  if (values.empty()) {
    s.mean = s.median = s.stddev = s.min = s.max = kNaN;
    return s;
  }
  s.mean = Mean(values);
  s.median = Median(values);
  s.stddev = SampleStddev(values, s.mean);
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  s.min = *min_it;
  s.max = *max_it;
  return s;
}

double CoefficientOfVariation(const std::vector<double>& values) {
  if (values.size() < 2) {
    return kNaN;
  }
  const double mean = Mean(values);
  return SampleStddev(values, mean) / mean;
}

}  // namespace evalsuite::stats
