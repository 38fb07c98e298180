// Sample quantiles by linear interpolation between order statistics (Hyndman and Fan's type 7: R's default,
// numpy.percentile's "linear"), for latency percentiles. Boost.Math has distributions' quantiles, not samples'.
#pragma once

#include <vector>

namespace evalsuite::stats {

// q in [0, 1]; `values` in any order; 0 for an empty sample.
double SampleQuantile(std::vector<double> values, double q);

}  // namespace evalsuite::stats
