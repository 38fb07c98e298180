#include "stats/proportion.h"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

void CheckAlpha(double alpha, const char* who) {
  if (!(alpha > 0 && alpha < 1)) {
    throw std::invalid_argument(std::string(who) + ": alpha must lie in (0, 1)");
  }
}

// Wilson score interval without continuity correction (Newcombe 1998, method 3 of his single-proportion paper).
Interval Wilson(double successes, double n, double z) {
  const double p = successes / n;
  const double z2 = z * z;
  const double centre = 2 * n * p + z2;
  const double spread = z * std::sqrt(z2 + 4 * n * p * (1 - p));
  const double denominator = 2 * (n + z2);
  return Interval{std::max(0.0, (centre - spread) / denominator), std::min(1.0, (centre + spread) / denominator)};
}

}  // namespace

Interval ClopperPearson(std::size_t successes, std::size_t n, double alpha) {
  CheckAlpha(alpha, "ClopperPearson");
  if (successes > n) {
    throw std::invalid_argument("ClopperPearson: successes exceed n");
  }
  if (n == 0) {
    return Interval{0, 1};
  }
  const double x = static_cast<double>(successes);
  const double m = static_cast<double>(n);
  Interval ci{0, 1};
  if (successes > 0) {
    ci.lower = boost::math::quantile(boost::math::beta_distribution<>(x, m - x + 1), alpha / 2);
  }
  if (successes < n) {
    ci.upper = boost::math::quantile(boost::math::beta_distribution<>(x + 1, m - x), 1 - alpha / 2);
  }
  return ci;
}

Interval PairedProportionDifference(const PairedCounts& counts, double alpha) {
  CheckAlpha(alpha, "PairedProportionDifference");
  const double a = static_cast<double>(counts.both);
  const double b = static_cast<double>(counts.only_a);
  const double c = static_cast<double>(counts.only_b);
  const double d = static_cast<double>(counts.neither);
  const double n = a + b + c + d;
  if (n == 0) {
    return Interval{-1, 1};
  }
  const double z = boost::math::quantile(boost::math::normal(), 1 - alpha / 2);

  const double p_a = (a + b) / n;  // A's accuracy
  const double p_b = (a + c) / n;  // B's accuracy
  const Interval ci_a = Wilson(a + b, n, z);
  const Interval ci_b = Wilson(a + c, n, z);

  // Newcombe's phi: the correlation of the two marginals, with ad - bc shrunk towards 0 by n/2 when
  // positive (his correction), left as is when negative, 0 when any margin is empty.
  double phi = 0;
  const double margins = (a + b) * (c + d) * (a + c) * (b + d);
  if (margins > 0) {
    const double cross = a * d - b * c;
    const double shrunk = cross > n / 2 ? cross - n / 2 : (cross < 0 ? cross : 0);
    phi = shrunk / std::sqrt(margins);
  }
  const double estimate = p_a - p_b;
  const double dl_a = p_a - ci_a.lower;
  const double du_a = ci_a.upper - p_a;
  const double dl_b = p_b - ci_b.lower;
  const double du_b = ci_b.upper - p_b;
  const double delta = std::sqrt(std::max(0.0, dl_a * dl_a - 2 * phi * dl_a * du_b + du_b * du_b));
  const double epsilon = std::sqrt(std::max(0.0, du_a * du_a - 2 * phi * du_a * dl_b + dl_b * dl_b));
  return Interval{std::max(-1.0, estimate - delta), std::min(1.0, estimate + epsilon)};
}

Interval PairedProportionDifference(std::size_t b, std::size_t c, std::size_t n, double alpha) {
  CheckAlpha(alpha, "PairedProportionDifference");
  if (b + c > n) {
    throw std::invalid_argument("PairedProportionDifference: b + c exceed n");
  }
  // Method 10 needs how the n - b - c concordant items split into both-right and both-wrong; without it,
  // take the widest interval over every split so that the answer is never narrower than the truth.
  const std::size_t concordant = n - b - c;
  Interval widest{1, -1};
  for (std::size_t both = 0; both <= concordant; ++both) {
    const Interval ci = PairedProportionDifference(PairedCounts{both, b, c, concordant - both}, alpha);
    widest.lower = std::min(widest.lower, ci.lower);
    widest.upper = std::max(widest.upper, ci.upper);
  }
  return widest;
}

}  // namespace evalsuite::stats
