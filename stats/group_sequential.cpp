#include "stats/group_sequential.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

const boost::math::normal kNormal;
constexpr int kGridPoints = 401;      // odd, for Simpson's rule
constexpr double kNeverCross = 40;    // the critical value of a look that spends (almost) nothing
constexpr double kDensityRange = 10;  // beyond |z| = 10 the densities hold nothing that matters

// The normal's upper tail and density written out: the inner loops call them millions of times.
double Upper(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }
double Density(double x) { return 0.3989422804014327 * std::exp(-0.5 * x * x); }

// The density of Z_k on the continuation region, on a grid with Simpson weights.
struct GridDensity {
  std::vector<double> z, weighted;  // weighted = Simpson weight x density
};

GridDensity Grid(double half_width, const std::function<double(double)>& density) {
  GridDensity g;
  const double h = 2 * half_width / (kGridPoints - 1);
  for (int i = 0; i < kGridPoints; ++i) {
    const double z = -half_width + h * i;
    const double simpson = (i == 0 || i == kGridPoints - 1) ? 1 : (i % 2 == 1 ? 4 : 2);
    g.z.push_back(z);
    g.weighted.push_back(simpson * h / 3 * density(z));
  }
  return g;
}

}  // namespace

double ObrienFlemingSpending(double t, double alpha) {
  if (t <= 0) return 0;
  if (t >= 1) return alpha;
  // alpha / 2 per side, each side spent as a one-sided O'Brien-Fleming-type function (ldbounds, gsDesign).
  const double z = boost::math::quantile(kNormal, 1 - alpha / 4);
  return 4 * Upper(z / std::sqrt(t));
}

std::vector<SequentialBoundary> GroupSequentialBoundaries(const std::vector<double>& information_fractions,
                                                          double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("group-sequential: alpha must lie in (0, 1)");
  double previous_t = 0;
  for (double t : information_fractions) {
    if (!(t > previous_t && t <= 1)) {
      throw std::invalid_argument("group-sequential: information fractions must increase within (0, 1]");
    }
    previous_t = t;
  }
  std::vector<SequentialBoundary> out;
  GridDensity density;  // of Z at the previous look, on its continuation region (sub-density: paths not stopped)
  double spent = 0;
  previous_t = 0;
  for (std::size_t k = 0; k < information_fractions.size(); ++k) {
    const double t = information_fractions[k];
    SequentialBoundary b;
    b.information_fraction = t;
    b.cumulative_alpha = ObrienFlemingSpending(t, alpha);
    const double increment = b.cumulative_alpha - spent;
    const double r = std::sqrt(previous_t / t), s = std::sqrt(1 - r * r);
    // P(not stopped before, |Z_k| >= c).
    auto exit_probability = [&](double c) {
      if (k == 0) return 2 * Upper(c);
      double p = 0;
      for (std::size_t j = 0; j < density.z.size(); ++j) {
        const double mean = r * density.z[j];
        p += density.weighted[j] * (Upper((c - mean) / s) + Upper((c + mean) / s));
      }
      return p;
    };
    if (increment <= 1e-15 || exit_probability(kNeverCross) >= increment) {
      b.critical_z = kNeverCross;
    } else {
      double low = 0, high = kNeverCross;
      for (int i = 0; i < 60 && high - low > 1e-9; ++i) {
        const double mid = (low + high) / 2;
        (exit_probability(mid) > increment ? low : high) = mid;
      }
      b.critical_z = (low + high) / 2;
    }
    spent += exit_probability(b.critical_z);
    const double half_width = std::min(b.critical_z, kDensityRange);
    if (k == 0) {
      density = Grid(half_width, [](double z) { return Density(z); });
    } else {
      const GridDensity before = density;
      density = Grid(half_width, [&](double z) {
        double f = 0;
        for (std::size_t j = 0; j < before.z.size(); ++j) {
          f += before.weighted[j] * Density((z - r * before.z[j]) / s) / s;
        }
        return f;
      });
    }
    previous_t = t;
    out.push_back(b);
  }
  return out;
}

std::vector<SequentialBoundary> BlockwiseBoundaries(int min_runs, int max_runs, double alpha) {
  if (min_runs < 1 || max_runs < min_runs) {
    throw std::invalid_argument("group-sequential: need 1 <= min_runs <= max_runs");
  }
  std::vector<double> fractions;
  for (int n = min_runs; n <= max_runs; ++n) fractions.push_back(static_cast<double>(n) / max_runs);
  return GroupSequentialBoundaries(fractions, alpha);
}

}  // namespace evalsuite::stats
