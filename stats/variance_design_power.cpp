#include "stats/variance_design_power.h"

#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>

namespace evalsuite::stats {

double PowerToTellApart(const LevelsQuestion& question, int levels) {
  if (levels < 2 || question.factors < 1 || question.repeats < 1) return 0;
  const double runs_per_level = std::pow(static_cast<double>(levels), question.factors - 1) * question.repeats;
  const double expected_a = question.residual + runs_per_level * question.variance_a;
  const double expected_b = question.residual + runs_per_level * question.variance_b;
  if (!(expected_a > 0) || !(expected_b > 0)) return 0;
  const double theta = expected_a / expected_b;
  const double df = levels - 1;
  const boost::math::fisher_f f(df, df);
  const double upper = boost::math::quantile(f, 1 - question.alpha / 2);
  const double lower = boost::math::quantile(f, question.alpha / 2);
  // MS_a / MS_b = theta F: it falls outside [lower, upper] with this probability.
  return boost::math::cdf(boost::math::complement(f, upper / theta)) + boost::math::cdf(f, lower / theta);
}

std::optional<int> LevelsToTellApart(const LevelsQuestion& question) {
  for (int levels = 2; levels <= question.max_levels; ++levels) {
    if (PowerToTellApart(question, levels) >= question.power) return levels;
  }
  return std::nullopt;
}

}  // namespace evalsuite::stats
