// Confidence interval for a coefficient of variation by Vangel's modified McKay method (Vangel 1996).
// With k = s/mean, v = n-1, u1 = chi2(1-alpha/2; v), u2 = chi2(alpha/2; v) (quantiles):
//   [k / sqrt(((u1+2)/(v+1) - 1) k^2 + u1/v),  k / sqrt(((u2+2)/(v+1) - 1) k^2 + u2/v)]
// n=10, k=0.05 gives [0.034369, 0.091483]. Requires n >= 2 and k >= 0; the upper bound is +infinity
// where the expression under the root is not positive.
#pragma once

#include <cstddef>

#include "stats/interval.h"

namespace evalsuite::stats {

Interval VangelCovInterval(double cov, std::size_t n, double alpha = 0.05);

}  // namespace evalsuite::stats
