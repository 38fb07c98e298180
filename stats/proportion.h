// Intervals for proportions: exact Clopper-Pearson for a single proportion (9/10 gives
// [0.554984, 0.997471]; 0 successes give lower 0, n successes give upper 1).
#pragma once

#include <cstddef>

#include "stats/interval.h"

namespace evalsuite::stats {

Interval ClopperPearson(std::size_t successes, std::size_t n, double alpha = 0.05);

// Interval for the difference of two paired proportions pA - pB on the same n items, where b items only A
// gets right and c items only B gets right (Newcombe 1998, method 10: score-based, no continuity correction).
Interval PairedProportionDifference(std::size_t b, std::size_t c, std::size_t n, double alpha = 0.05);

}  // namespace evalsuite::stats
