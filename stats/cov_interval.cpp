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

double CovUpperBoundAssurance(double true_cov, std::size_t n, double limit, double alpha) {
  if (n < 2 || !(true_cov > 0) || !(limit > 0)) {
    throw std::invalid_argument("CovUpperBoundAssurance: needs n >= 2, a true CoV > 0 and a limit > 0");
  }
  const double v = static_cast<double>(n - 1);
  const boost::math::chi_squared chi2(v);
  const double u2 = boost::math::quantile(chi2, alpha / 2);
  // The upper bound grows with the sample CoV k, so "upper bound <= limit" is "k <= k*" where McKayBound(k*) =
  // limit: k*^2 = limit^2 (u2/v) / (1 - limit^2 a), a = (u2+2)/(v+1) - 1. Every k passes when 1 - limit^2 a <= 0.
  const double a = (u2 + 2) / (v + 1) - 1;
  const double denominator = 1 - limit * limit * a;
  if (denominator <= 0) return 1;
  const double k2 = limit * limit * (u2 / v) / denominator;
  const double statistic = v * (1 + 1 / (true_cov * true_cov)) * k2 / (1 + k2);
  return boost::math::cdf(chi2, statistic);
}

std::optional<std::size_t> RunsForCovAssurance(double true_cov, double limit, double assurance, double alpha,
                                               std::size_t most) {
  if (!(true_cov > 0) || true_cov >= limit) return std::nullopt;
  for (std::size_t n = 2; n <= most; ++n) {
    if (CovUpperBoundAssurance(true_cov, n, limit, alpha) >= assurance) return n;
  }
  return std::nullopt;
}

}  // namespace evalsuite::stats
