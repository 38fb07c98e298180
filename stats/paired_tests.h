// Paired comparison of two classifiers on the same items: the exact McNemar test.
// b = items only A gets right, c = items only B gets right;
// p = min(1, 2 * BinomialCDF(min(b, c); b + c, 1/2)); b=12, c=4 gives p = 0.076813; b = c = 0 gives p = 1.
#pragma once

#include <cstddef>

namespace evalsuite::stats {

struct McNemarResult {
  std::size_t b = 0;
  std::size_t c = 0;
  double p_value = 1;
};

McNemarResult ExactMcNemar(std::size_t b, std::size_t c);

}  // namespace evalsuite::stats
