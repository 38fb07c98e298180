#include "stats/paired_tests.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>

namespace evalsuite::stats {

McNemarResult ExactMcNemar(std::size_t b, std::size_t c) {
  McNemarResult result{b, c, 1.0};
  if (b + c == 0) {
    return result;
  }
  const boost::math::binomial_distribution<> binomial(static_cast<double>(b + c), 0.5);
  const double tail = boost::math::cdf(binomial, static_cast<double>(std::min(b, c)));
  result.p_value = std::min(1.0, 2 * tail);
  return result;
}

}  // namespace evalsuite::stats
