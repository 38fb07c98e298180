// Variance components of a random-effects design: y = mu + sum over factors k of u_k[level of run] + e, every u_k
// and e normal with mean 0 and their own variance, the factors crossed or nested (any assignment of levels to
// runs). Used for "which source of randomness makes TTA unstable" (issue 55): y is ln TTA (or ln epochs, time per
// epoch, accuracy) and each factor a source's seed (init, data order, augmentation); the residual is what the same
// seeds do twice (nondeterminism: threads, kernels, the machine).
//
// Estimates: REML (restricted maximum likelihood, Patterson & Thompson 1971), the likelihood maximized over the
// log variances by Nelder-Mead, dense (a design of up to a few hundred runs); a variance below 1e-9 of the total is
// reported as 0 (the boundary). Intervals: parametric bootstrap percentile intervals (simulate the fitted model,
// refit; Efron & Tibshirani 1993), so they stay inside [0, inf). Their coverage, simulated on a 3 x 3 x 2 crossed
// design with repeats: the residual's about 92%, each factor's only 65-77% with 2 or 3 levels (the percentile
// bootstrap's known weakness with few levels): not to be shown as 95% intervals of a factor as they stand.
// No interaction terms. Checked against statsmodels' MixedLM (REML) in tests/stats/variance_components_test.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stats/interval.h"

namespace evalsuite::stats {

struct VarianceDesign {
  std::vector<std::string> factors;      // names, e.g. "init", "data_order"
  std::vector<std::vector<int>> levels;  // levels[run][factor]: the run's level of each factor (any integers)
  std::vector<double> y;                 // the response of each run
};

struct VarianceComponent {
  std::string name;  // a factor's name, or "residual"
  double variance = 0;
  double share = 0;  // of the sum of the components
  std::optional<Interval> variance_interval;
  std::optional<Interval> share_interval;
};

struct VarianceComponents {
  std::vector<VarianceComponent> components;  // the factors in their order, then "residual"
  double mean = 0;                            // REML's estimate of mu
  double total = 0;                           // sum of the components
  int bootstrap_replicates = 0;               // 0 when the intervals are withheld
  std::string method;                         // how the figures were computed, in words
  std::optional<std::string> withheld;        // why the estimates cannot be made (then components is empty)
};

struct VarianceComponentsOptions {
  int bootstrap_replicates = 400;
  double confidence = 0.95;
  uint64_t seed = 20261205;  // the bootstrap's; fixed so that a report is reproducible
};

// Each factor needs at least 2 levels and the design more runs than factors + 2 (mean, residual); otherwise the
// result says which and why (withheld), never a number that the design cannot identify.
VarianceComponents EstimateVarianceComponents(const VarianceDesign& design,
                                              const VarianceComponentsOptions& options = {});

}  // namespace evalsuite::stats
