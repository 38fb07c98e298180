#include "stats/cov_interval.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// One bound of the modified McKay interval for the chi-square quantile u.
double McKayBound(double k, double u, double v) {
  const double under_root = ((u + 2) / (v + 1) - 1) * k * k + u / v;
  if (under_root <= 0) {
    return std::numeric_limits<double>::infinity();
  }
  return k / std::sqrt(under_root);
}

}  // namespace

Interval VangelCovInterval(double cov, std::size_t n, double alpha) {
  if (n < 2) {
    throw std::invalid_argument("VangelCovInterval: needs n >= 2");
  }
  if (!(cov >= 0) || !std::isfinite(cov)) {
    throw std::invalid_argument("VangelCovInterval: needs a finite cov >= 0");
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw std::invalid_argument("VangelCovInterval: alpha must lie in (0, 1)");
  }
  const double v = static_cast<double>(n - 1);
  const boost::math::chi_squared chi2(v);
  const double u1 = boost::math::quantile(chi2, 1 - alpha / 2);
  const double u2 = boost::math::quantile(chi2, alpha / 2);
  return Interval{McKayBound(cov, u1, v), McKayBound(cov, u2, v)};
}

}  // namespace evalsuite::stats
