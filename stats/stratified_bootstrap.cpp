#include "stats/stratified_bootstrap.h"

#include <limits>
#include <random>
#include <stdexcept>

#include "stats/quantile.h"

namespace evalsuite::stats {

StratifiedEstimate StratifiedWeightedMean(const std::vector<std::vector<double>>& strata,
                                          const std::vector<double>& weights, double alpha, std::size_t resamples,
                                          std::uint64_t seed) {
  if (strata.size() != weights.size()) {
    throw std::invalid_argument("StratifiedWeightedMean: one weight per stratum");
  }
  StratifiedEstimate result;
  result.alpha = alpha;
  result.resamples = resamples;
  result.seed = seed;
  double weight = 0, total = 0;
  for (std::size_t s = 0; s < strata.size(); ++s) {
    if (strata[s].empty() || !(weights[s] > 0)) continue;
    double sum = 0;
    for (double x : strata[s]) sum += x;
    total += weights[s] * sum / static_cast<double>(strata[s].size());
    weight += weights[s];
  }
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (!(weight > 0)) {
    result.estimate = kNaN;
    result.interval = {kNaN, kNaN};
    return result;
  }
  result.estimate = total / weight;
  if (resamples == 0) {
    result.interval = {result.estimate, result.estimate};
    return result;
  }
  // mt19937_64's output is fixed by the standard; an index by modulo keeps the draws identical on every library
  // (uniform_int_distribution's algorithm is not specified); the bias is below 2^-40 for a million images.
  std::mt19937_64 engine(seed);
  std::vector<double> estimates;
  estimates.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    double resampled = 0;
    for (std::size_t s = 0; s < strata.size(); ++s) {
      const std::vector<double>& stratum = strata[s];
      if (stratum.empty() || !(weights[s] > 0)) continue;
      double sum = 0;
      for (std::size_t i = 0; i < stratum.size(); ++i) sum += stratum[engine() % stratum.size()];
      resampled += weights[s] * sum / static_cast<double>(stratum.size());
    }
    estimates.push_back(resampled / weight);
  }
  result.interval = {SampleQuantile(estimates, alpha / 2), SampleQuantile(estimates, 1 - alpha / 2)};
  return result;
}

}  // namespace evalsuite::stats
