// A weighted mean of stratum means (e.g. accuracy reweighted over selection-frequency bins) with a seeded,
// stratified percentile bootstrap: each resample draws, within every stratum, as many observations as it has,
// with replacement, so the strata sizes and weights stay fixed and only the sampling within strata varies.
#pragma once

#include <cstdint>
#include <vector>

#include "stats/interval.h"

namespace evalsuite::stats {

constexpr std::uint64_t kStratifiedBootstrapSeed = 20200512;  // fixed so a report is reproducible
constexpr std::size_t kStratifiedBootstrapResamples = 2000;

struct StratifiedEstimate {
  double estimate = 0;  // NaN when no stratum with a positive weight has an observation
  Interval interval;    // percentile bootstrap, 100 (1 - alpha)%; NaN bounds when there is no estimate
  double alpha = 0.05;
  std::size_t resamples = 0;
  std::uint64_t seed = 0;
};

// estimate = sum_s w_s mean(strata[s]) / sum_s w_s over the strata with observations and w_s > 0 (the others
// drop out and the weights are renormalized). `weights` has one entry per stratum.
StratifiedEstimate StratifiedWeightedMean(const std::vector<std::vector<double>>& strata,
                                          const std::vector<double>& weights, double alpha = 0.05,
                                          std::size_t resamples = kStratifiedBootstrapResamples,
                                          std::uint64_t seed = kStratifiedBootstrapSeed);

}  // namespace evalsuite::stats
