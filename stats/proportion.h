// Intervals for proportions: exact Clopper-Pearson for a single proportion (9/10 gives
// [0.554984, 0.997471]; 0 successes give lower 0, n successes give upper 1), and Newcombe's score interval
// for the difference of two paired proportions. Invalid counts or alpha outside (0, 1) throw
// std::invalid_argument.
#pragma once

#include <cstddef>

#include "stats/interval.h"

namespace evalsuite::stats {

// n = 0 gives [0, 1]: no items, no information.
Interval ClopperPearson(std::size_t successes, std::size_t n, double alpha = 0.05);

// The paired 2x2 table of two classifiers A and B on the same items.
struct PairedCounts {
  std::size_t both = 0;     // items both get right
  std::size_t only_a = 0;   // items only A gets right (McNemar's b)
  std::size_t only_b = 0;   // items only B gets right (McNemar's c)
  std::size_t neither = 0;  // items both get wrong
};

// Interval for the accuracy difference pA - pB (Newcombe 1998, method 10: Wilson score limits of each
// accuracy, no continuity correction, combined with Newcombe's corrected phi). Fagerland et al. (2017),
// Cavo et al. data {59, 6, 16, 80}: -0.0621 in [-0.1186, -0.0046]. No items gives [-1, 1].
Interval PairedProportionDifference(const PairedCounts& counts, double alpha = 0.05);

// The same from b, c and n only. Method 10 needs how the n - b - c concordant items split into both-right
// and both-wrong; without it this returns the widest method-10 interval over every split (conservative).
// Prefer the PairedCounts overload whenever both accuracies are known.
Interval PairedProportionDifference(std::size_t b, std::size_t c, std::size_t n, double alpha = 0.05);

}  // namespace evalsuite::stats
