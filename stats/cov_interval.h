// Confidence interval for a coefficient of variation by Vangel's modified McKay method (Vangel 1996).
// With k = s/mean, v = n-1, u1 = chi2(1-alpha/2; v), u2 = chi2(alpha/2; v) (quantiles):
//   [k / sqrt(((u1+2)/(v+1) - 1) k^2 + u1/v),  k / sqrt(((u2+2)/(v+1) - 1) k^2 + u2/v)]
// n=10, k=0.05 gives [0.034369, 0.091483]. Requires n >= 2 and k >= 0; the upper bound is +infinity
// where the expression under the root is not positive.
//
// How many runs would tell: the upper bound is itself random (it moves with the sample CoV). Its sampling
// distribution follows from McKay's approximation, the one Vangel's interval is built on: for normal data with
// true CoV theta, v (1 + 1/theta^2) k^2 / (1 + k^2) is about chi-square with v = n-1 degrees of freedom.
#pragma once

#include <cstddef>
#include <optional>

#include "stats/interval.h"

namespace evalsuite::stats {

Interval VangelCovInterval(double cov, std::size_t n, double alpha = 0.05);

// The probability that n runs from a population whose CoV is `true_cov` give a Vangel upper bound at most
// `limit` (McKay's approximation above; a seeded simulation of 200,000 normal samples agrees to 0.003).
double CovUpperBoundAssurance(double true_cov, std::size_t n, double limit, double alpha = 0.05);

// The fewest n (at most `most`) whose CovUpperBoundAssurance is at least `assurance`; nullopt when none is (the
// true CoV at or above the limit, or more than `most` runs needed).
std::optional<std::size_t> RunsForCovAssurance(double true_cov, double limit, double assurance, double alpha = 0.05,
                                               std::size_t most = 1000);

}  // namespace evalsuite::stats
