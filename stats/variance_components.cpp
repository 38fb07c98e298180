#include "stats/variance_components.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <utility>

#include "stats/quantile.h"

namespace evalsuite::stats {
namespace {

// The design as level indices 0..m_k-1 per factor, so that V's entries are cheap to form.
struct IndexedDesign {
  std::vector<std::vector<int>> level;  // level[factor][run]
  std::vector<int> level_count;         // per factor
};

IndexedDesign IndexLevels(const VarianceDesign& design) {
  IndexedDesign out;
  const size_t factors = design.factors.size();
  out.level.assign(factors, std::vector<int>(design.y.size()));
  for (size_t k = 0; k < factors; ++k) {
    std::map<int, int> index;
    for (size_t i = 0; i < design.y.size(); ++i) {
      const auto found = index.emplace(design.levels[i][k], static_cast<int>(index.size())).first;
      out.level[k][i] = found->second;
    }
    out.level_count.push_back(static_cast<int>(index.size()));
  }
  return out;
}

// What the likelihood needs of the design and y, none of which depends on the variances: computed once per fit, so
// that each of Nelder-Mead's evaluations costs O(q^3), not O(n q^2).
struct RemlSums {
  size_t n = 0, factors = 0, q = 0;
  std::vector<size_t> offset;             // column of factor k's first level
  std::vector<double> ztz, zt_one, zt_y;  // Z'Z (q x q), Z'1, Z'y
  double y_y = 0, sum_y = 0;
};

RemlSums SumsOf(const IndexedDesign& d, const std::vector<double>& y) {
  RemlSums s;
  s.n = y.size();
  s.factors = d.level.size();
  s.offset.assign(s.factors + 1, 0);
  for (size_t k = 0; k < s.factors; ++k) s.offset[k + 1] = s.offset[k] + static_cast<size_t>(d.level_count[k]);
  s.q = s.offset[s.factors];
  s.ztz.assign(s.q * s.q, 0.0);
  s.zt_one.assign(s.q, 0.0);
  s.zt_y.assign(s.q, 0.0);
  std::vector<size_t> column(s.factors);
  for (size_t i = 0; i < s.n; ++i) {
    for (size_t k = 0; k < s.factors; ++k) column[k] = s.offset[k] + static_cast<size_t>(d.level[k][i]);
    for (size_t a = 0; a < s.factors; ++a) {
      s.zt_one[column[a]] += 1.0;
      s.zt_y[column[a]] += y[i];
      for (size_t b = 0; b < s.factors; ++b) s.ztz[column[a] * s.q + column[b]] += 1.0;
    }
    s.y_y += y[i] * y[i];
    s.sum_y += y[i];
  }
  return s;
}

// -2 x the REML log-likelihood (without its constant) at variances `v` (factors, then the residual), and mu's
// generalized least-squares estimate. V = Z D Z' + v_e I with Z the runs' level indicators (q columns, one per level
// of every factor) and D their variances; the fixed part is the mean alone, so
// -2 l = log|V| + log(1'V^-1 1) + y'V^-1 y - (1'V^-1 y)^2 / 1'V^-1 1.
// By Woodbury, with S = D^1/2 and M = I + S Z'Z S / v_e (q x q): log|V| = n log v_e + log|M| and
// a'V^-1 b = (a'b - (S Z'a)' M^-1 (S Z'b) / v_e) / v_e, so an evaluation costs O(q^3) given the sums, not O(n^3): a
// design of a few hundred runs has a few dozen levels. Infinity where V is not positive definite.
double MinusTwoRemlLogLikelihood(const RemlSums& sums, const std::vector<double>& v, double* mean) {
  const size_t n = sums.n, factors = sums.factors, q = sums.q;
  const std::vector<size_t>& offset = sums.offset;
  const double residual = v[factors];
  if (!(residual > 0)) return std::numeric_limits<double>::infinity();
  std::vector<double> root(q);  // S's diagonal
  for (size_t k = 0; k < factors; ++k) {
    for (size_t l = offset[k]; l < offset[k + 1]; ++l) root[l] = std::sqrt(std::max(v[k], 0.0));
  }
  // M = I + S Z'Z S / v_e, and S Z'1, S Z'y.
  std::vector<double> m(q * q), u(q), w(q);
  for (size_t a = 0; a < q; ++a) {
    u[a] = sums.zt_one[a] * root[a];
    w[a] = sums.zt_y[a] * root[a];
    for (size_t b = 0; b < q; ++b) {
      m[a * q + b] = sums.ztz[a * q + b] * root[a] * root[b] / residual + (a == b ? 1.0 : 0.0);
    }
  }
  // In-place Cholesky of M (lower triangle): M = L L'.
  double log_det = static_cast<double>(n) * std::log(residual);
  for (size_t j = 0; j < q; ++j) {
    double diagonal = m[j * q + j];
    for (size_t p = 0; p < j; ++p) diagonal -= m[j * q + p] * m[j * q + p];
    if (!(diagonal > 0)) return std::numeric_limits<double>::infinity();
    const double r = std::sqrt(diagonal);
    log_det += 2 * std::log(r);
    m[j * q + j] = r;
    for (size_t i = j + 1; i < q; ++i) {
      double entry = m[i * q + j];
      for (size_t p = 0; p < j; ++p) entry -= m[i * q + p] * m[j * q + p];
      m[i * q + j] = entry / r;
    }
  }
  // Forward solves L a = S Z'1 and L b = S Z'y: then (S Z'1)' M^-1 (S Z'y) = a'b, and so on.
  std::vector<double> a(q), b(q);
  for (size_t i = 0; i < q; ++i) {
    double sa = u[i], sb = w[i];
    for (size_t p = 0; p < i; ++p) sa -= m[i * q + p] * a[p], sb -= m[i * q + p] * b[p];
    a[i] = sa / m[i * q + i];
    b[i] = sb / m[i * q + i];
  }
  double aa = 0, ab = 0, bb = 0;
  for (size_t i = 0; i < q; ++i) aa += a[i] * a[i], ab += a[i] * b[i], bb += b[i] * b[i];
  const double one_one = (static_cast<double>(n) - aa / residual) / residual;
  const double one_y = (sums.sum_y - ab / residual) / residual;
  const double y_y = (sums.y_y - bb / residual) / residual;
  if (!(one_one > 0)) return std::numeric_limits<double>::infinity();
  if (mean) *mean = one_y / one_one;
  return log_det + std::log(one_one) + y_y - one_y * one_y / one_one;
}

// The largest distance, along any coordinate, of a simplex's point from its best one.
double SimplexSpread(const std::vector<std::vector<double>>& simplex, size_t best) {
  double spread = 0;
  for (const std::vector<double>& point : simplex) {
    for (size_t d = 0; d < point.size(); ++d) spread = std::max(spread, std::abs(point[d] - simplex[best][d]));
  }
  return spread;
}

// One Nelder-Mead step (Lagarias et al. 1998's coefficients) on the simplex whose points are ordered best first:
// reflect the worst point through the others' centroid, expand, contract, or shrink towards the best.
void NelderMeadStep(const std::function<double(const std::vector<double>&)>& f, const std::vector<size_t>& order,
                    std::vector<std::vector<double>>& simplex, std::vector<double>& values) {
  const size_t dims = simplex.size() - 1;
  const size_t best = order.front(), worst = order.back(), second_worst = order[dims - 1];
  std::vector<double> centroid(dims, 0.0);
  for (size_t i : order) {
    if (i == worst) continue;
    for (size_t d = 0; d < dims; ++d) centroid[d] += simplex[i][d] / static_cast<double>(dims);
  }
  auto along = [&](double t) {
    std::vector<double> point(dims);
    for (size_t d = 0; d < dims; ++d) point[d] = centroid[d] + t * (simplex[worst][d] - centroid[d]);
    return point;
  };
  auto replace_worst = [&](std::vector<double> point, double value) {
    simplex[worst] = std::move(point);
    values[worst] = value;
  };
  std::vector<double> reflected = along(-1.0);
  const double reflected_value = f(reflected);
  if (reflected_value < values[best]) {
    std::vector<double> expanded = along(-2.0);
    const double expanded_value = f(expanded);
    if (expanded_value < reflected_value) return replace_worst(std::move(expanded), expanded_value);
    return replace_worst(std::move(reflected), reflected_value);
  }
  if (reflected_value < values[second_worst]) return replace_worst(std::move(reflected), reflected_value);
  std::vector<double> contracted = along(reflected_value < values[worst] ? -0.5 : 0.5);
  const double contracted_value = f(contracted);
  if (contracted_value < std::min(reflected_value, values[worst])) {
    return replace_worst(std::move(contracted), contracted_value);
  }
  for (size_t i = 0; i <= dims; ++i) {  // shrink towards the best
    if (i == best) continue;
    for (size_t d = 0; d < dims; ++d) simplex[i][d] = simplex[best][d] + 0.5 * (simplex[i][d] - simplex[best][d]);
    values[i] = f(simplex[i]);
  }
}

// Nelder-Mead from `start`, until the simplex's values agree to 1e-10 or its points (log variances) to 1e-7.
std::vector<double> MinimizeNelderMead(const std::function<double(const std::vector<double>&)>& f,
                                       const std::vector<double>& start, double step) {
  const size_t dims = start.size();
  std::vector<std::vector<double>> simplex(dims + 1, start);
  for (size_t i = 0; i < dims; ++i) simplex[i + 1][i] += step;
  std::vector<double> values(dims + 1);
  for (size_t i = 0; i <= dims; ++i) values[i] = f(simplex[i]);
  for (int iteration = 0; iteration < 4000; ++iteration) {
    std::vector<size_t> order(dims + 1);
    for (size_t i = 0; i <= dims; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&values](size_t x, size_t z) { return values[x] < values[z]; });
    const size_t best = order.front(), worst = order.back();
    if (std::abs(values[worst] - values[best]) < 1e-10 * (1 + std::abs(values[best]))) break;
    // Or the simplex has shrunk to a point: on a flat ridge (a variance at the boundary) the values can keep
    // differing in their last digits for thousands of steps that move nothing that is reported.
    if (SimplexSpread(simplex, best) < 1e-7) break;
    NelderMeadStep(f, order, simplex, values);
  }
  return simplex[static_cast<size_t>(std::min_element(values.begin(), values.end()) - values.begin())];
}

struct RemlFit {
  std::vector<double> variances;  // factors, then residual
  double mean = 0;
};

// REML over the log variances, restarted once from its own optimum (Nelder-Mead can stall on a ridge). Variances
// under 1e-9 of the total are the boundary: 0.
RemlFit FitReml(const IndexedDesign& d, const std::vector<double>& y, const std::vector<double>& start_variances) {
  double y_var = 0, y_mean = 0;
  for (double value : y) y_mean += value / static_cast<double>(y.size());
  for (double value : y) y_var += (value - y_mean) * (value - y_mean) / static_cast<double>(y.size() - 1);
  const double scale = y_var > 0 ? y_var : 1.0;
  // REML does not change when y moves by a constant (the mean is the fixed effect), so it fits y - mean: the
  // quadratic forms then hold no large common part to cancel.
  std::vector<double> centered(y.size());
  for (size_t i = 0; i < y.size(); ++i) centered[i] = y[i] - y_mean;
  // The residual enters the likelihood divided (Woodbury's 1/v_e): below 1e-8 of y's variance its quadratic forms
  // cancel to rounding, and Nelder-Mead would chase that noise (a design whose factors explain y exactly, as
  // identical repeats do). So the residual stops there and is reported as 0 when it sits at that floor.
  const double floor = std::log(scale * 1e-12), residual_floor = std::log(scale * 1e-8);
  const size_t residual = start_variances.size() - 1;
  auto variances_of = [&](const std::vector<double>& theta) {
    std::vector<double> v(theta.size());
    for (size_t k = 0; k < theta.size(); ++k)
      v[k] = std::exp(std::max(theta[k], k == residual ? residual_floor : floor));
    return v;
  };
  const RemlSums sums = SumsOf(d, centered);
  auto objective = [&](const std::vector<double>& theta) {
    return MinusTwoRemlLogLikelihood(sums, variances_of(theta), nullptr);
  };
  std::vector<double> theta;
  theta.reserve(start_variances.size());
  for (double v : start_variances) theta.push_back(std::log(std::max(v, scale * 1e-6)));
  theta = MinimizeNelderMead(objective, theta, 1.0);
  theta = MinimizeNelderMead(objective, theta, 0.5);
  RemlFit fit;
  fit.variances = variances_of(theta);
  MinusTwoRemlLogLikelihood(sums, fit.variances, &fit.mean);
  fit.mean += y_mean;
  double total = 0;
  for (double v : fit.variances) total += v;
  for (double& v : fit.variances) v = v < 1e-9 * total ? 0.0 : v;
  if (theta[residual] <= residual_floor + 1e-6) fit.variances[residual] = 0;
  return fit;
}

// True when every combination of the factors' levels holds the same number of runs (a balanced crossed design):
// there the ANOVA mean squares are independent scaled chi-squares and exact-df intervals exist.
bool IsBalancedCrossed(const IndexedDesign& d, size_t n) {
  size_t cells = 1;
  for (int count : d.level_count) cells *= static_cast<size_t>(count);
  if (cells == 0 || n % cells != 0) return false;
  std::map<std::vector<int>, size_t> in_cell;
  for (size_t i = 0; i < n; ++i) {
    std::vector<int> cell;
    for (const std::vector<int>& level : d.level) cell.push_back(level[i]);
    ++in_cell[cell];
  }
  return in_cell.size() == cells && std::all_of(in_cell.begin(), in_cell.end(),
                                                [n, cells](const auto& entry) { return entry.second == n / cells; });
}

// Intervals of a balanced crossed design's components from its ANOVA mean squares: the residual's exact chi-square
// interval, and each factor's sigma_k^2 = (E[MS_k] - E[MS_e]) / (n / L_k) by the modified large-sample method for a
// difference of expected mean squares (Ting, Burdick, Graybill, Jeyaratnam & Lu 1990; Burdick & Graybill 1992,
// section 3.2), lower end clipped at 0. nullopt when the residual has no degrees of freedom.
std::optional<std::vector<Interval>> MeanSquareIntervals(const IndexedDesign& d, const std::vector<double>& y,
                                                         double confidence) {
  const size_t n = y.size(), factors = d.level.size();
  double grand = 0;
  for (double value : y) grand += value / static_cast<double>(n);
  double total_ss = 0;
  for (double value : y) total_ss += (value - grand) * (value - grand);
  std::vector<double> ms(factors), df(factors);
  double residual_ss = total_ss, residual_df = static_cast<double>(n) - 1;
  for (size_t k = 0; k < factors; ++k) {
    std::vector<double> sum(static_cast<size_t>(d.level_count[k]), 0.0);
    std::vector<double> count(sum.size(), 0.0);
    for (size_t i = 0; i < n; ++i) sum[d.level[k][i]] += y[i], count[d.level[k][i]] += 1;
    double ss = 0;
    for (size_t l = 0; l < sum.size(); ++l) ss += count[l] * (sum[l] / count[l] - grand) * (sum[l] / count[l] - grand);
    df[k] = static_cast<double>(d.level_count[k] - 1);
    ms[k] = ss / df[k];
    residual_ss -= ss;
    residual_df -= df[k];
  }
  if (residual_df < 1) return std::nullopt;
  const double ms_e = std::max(residual_ss, 0.0) / residual_df;
  const double tail = (1 - confidence) / 2;
  auto chi = [](double nu, double p) { return boost::math::quantile(boost::math::chi_squared(nu), p); };
  auto f = [](double nu1, double nu2, double p) { return boost::math::quantile(boost::math::fisher_f(nu1, nu2), p); };
  std::vector<Interval> out;
  for (size_t k = 0; k < factors; ++k) {
    const double c = static_cast<double>(n) / d.level_count[k];
    const double n1 = df[k], n2 = residual_df, s1 = ms[k], s2 = ms_e;
    // F(p; nu, infinity) = chi-square(p; nu) / nu.
    const double f1_hi = chi(n1, 1 - tail) / n1, f1_lo = chi(n1, tail) / n1;
    const double f2_hi = chi(n2, 1 - tail) / n2, f2_lo = chi(n2, tail) / n2;
    const double f12_hi = f(n1, n2, 1 - tail), f12_lo = f(n1, n2, tail);
    const double g1 = 1 - 1 / f1_hi, h2 = 1 / f2_lo - 1;
    const double g12 = ((f12_hi - 1) * (f12_hi - 1) - g1 * g1 * f12_hi * f12_hi - h2 * h2) / f12_hi;
    const double h1 = 1 / f1_lo - 1, g2 = 1 - 1 / f2_hi;
    const double h12 = ((1 - f12_lo) * (1 - f12_lo) - h1 * h1 * f12_lo * f12_lo - g2 * g2) / f12_lo;
    const double low = s1 - s2 - std::sqrt(std::max(0.0, g1 * g1 * s1 * s1 + h2 * h2 * s2 * s2 + g12 * s1 * s2));
    const double high = s1 - s2 + std::sqrt(std::max(0.0, h1 * h1 * s1 * s1 + g2 * g2 * s2 * s2 + h12 * s1 * s2));
    out.push_back(Interval{std::max(0.0, low / c), std::max(0.0, high / c)});
  }
  out.push_back(Interval{residual_df * ms_e / chi(residual_df, 1 - tail), residual_df * ms_e / chi(residual_df, tail)});
  return out;
}

// Nothing varies beyond rounding (0.95 logged as 0.9500000000000001): every component is 0, exactly (the likelihood
// has no optimum to search for). nullopt when y varies.
std::optional<VarianceComponents> ComponentsOfAConstant(const VarianceDesign& design, double y_mean) {
  const auto [low, high] = std::minmax_element(design.y.begin(), design.y.end());
  if (*high - *low > 1e-12 * std::max(1.0, std::abs(y_mean))) return std::nullopt;
  VarianceComponents out;
  out.mean = design.y.front();
  out.method = "every run gave the same value: every component is 0";
  for (size_t k = 0; k <= design.factors.size(); ++k) {
    VarianceComponent c;
    c.name = k < design.factors.size() ? design.factors[k] : "residual";
    c.variance_interval = Interval{0, 0};
    c.share_interval = Interval{0, 0};
    out.components.push_back(c);
  }
  return out;
}

}  // namespace

VarianceComponents EstimateVarianceComponents(const VarianceDesign& design, const VarianceComponentsOptions& options) {
  VarianceComponents out;
  out.method =
      "REML (restricted maximum likelihood) of a random-effects model with the mean as its only fixed effect; "
      "intervals: parametric bootstrap percentiles";
  const size_t n = design.y.size(), factors = design.factors.size();
  if (design.levels.size() != n) {
    out.withheld = "the design gives levels for " + std::to_string(design.levels.size()) + " runs and responses for " +
                   std::to_string(n);
    return out;
  }
  for (size_t i = 0; i < n; ++i) {
    if (design.levels[i].size() != factors) {
      out.withheld = "run " + std::to_string(i) + " has levels for " + std::to_string(design.levels[i].size()) +
                     " factors, not " + std::to_string(factors);
      return out;
    }
    if (!std::isfinite(design.y[i])) {
      out.withheld = "run " + std::to_string(i) + "'s response is not a finite number";
      return out;
    }
  }
  if (n < factors + 3) {
    out.withheld = std::to_string(n) + " runs cannot separate " + std::to_string(factors + 1) +
                   " variances and a mean: at least " + std::to_string(factors + 3) + " are needed";
    return out;
  }
  const IndexedDesign indexed = IndexLevels(design);
  for (size_t k = 0; k < factors; ++k) {
    if (indexed.level_count[k] < 2) {
      out.withheld = design.factors[k] + " has one level in the design: its variance cannot be told from the mean";
      return out;
    }
    if (indexed.level_count[k] == static_cast<int>(n)) {
      out.withheld = design.factors[k] +
                     " has a level of its own for every run: its variance cannot be told from "
                     "the residual (repeats with the same seeds are needed)";
      return out;
    }
  }
  double y_mean = 0, y_var = 0;
  for (double value : design.y) y_mean += value / static_cast<double>(n);
  for (double value : design.y) y_var += (value - y_mean) * (value - y_mean) / static_cast<double>(n - 1);
  if (const std::optional<VarianceComponents> constant = ComponentsOfAConstant(design, y_mean)) return *constant;
  const RemlFit fit =
      FitReml(indexed, design.y, std::vector<double>(factors + 1, y_var / static_cast<double>(factors + 1)));
  out.mean = fit.mean;
  for (double v : fit.variances) out.total += v;
  for (size_t k = 0; k <= factors; ++k) {
    VarianceComponent c;
    c.name = k < factors ? design.factors[k] : "residual";
    c.variance = fit.variances[k];
    c.share = out.total > 0 ? c.variance / out.total : 0.0;
    out.components.push_back(c);
  }
  if (options.bootstrap_replicates < 20 || out.total <= 0) return out;

  // Parametric bootstrap: draw each factor's level effects and each run's residual from the fitted model, refit.
  std::mt19937_64 generator(options.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::vector<double>> variances(factors + 1), shares(factors + 1);
  for (int replicate = 0; replicate < options.bootstrap_replicates; ++replicate) {
    std::vector<double> y(n, fit.mean);
    for (size_t k = 0; k < factors; ++k) {
      std::vector<double> effect(static_cast<size_t>(indexed.level_count[k]));
      for (double& e : effect) e = std::sqrt(fit.variances[k]) * normal(generator);
      for (size_t i = 0; i < n; ++i) y[i] += effect[static_cast<size_t>(indexed.level[k][i])];
    }
    for (double& value : y) value += std::sqrt(fit.variances[factors]) * normal(generator);
    const RemlFit refit = FitReml(indexed, y, fit.variances);
    double total = 0;
    for (double v : refit.variances) total += v;
    for (size_t k = 0; k <= factors; ++k) {
      variances[k].push_back(refit.variances[k]);
      shares[k].push_back(total > 0 ? refit.variances[k] / total : 0.0);
    }
  }
  const double tail = (1 - options.confidence) / 2;
  // A balanced crossed design's variances get the mean squares' intervals (their coverage holds at 2 or 3 levels,
  // where percentile intervals of a variance fall short); the shares keep the bootstrap's.
  const std::optional<std::vector<Interval>> exact =
      IsBalancedCrossed(indexed, n) ? MeanSquareIntervals(indexed, design.y, options.confidence) : std::nullopt;
  for (size_t k = 0; k <= factors; ++k) {
    out.components[k].variance_interval =
        exact ? (*exact)[k] : Interval{SampleQuantile(variances[k], tail), SampleQuantile(variances[k], 1 - tail)};
    out.components[k].share_interval = Interval{SampleQuantile(shares[k], tail), SampleQuantile(shares[k], 1 - tail)};
  }
  if (exact) {
    out.method +=
        " of the shares; the variances' intervals from the balanced design's mean squares (chi-square for "
        "the residual, modified large-sample for each factor: Ting et al. 1990)";
  }
  out.bootstrap_replicates = options.bootstrap_replicates;
  return out;
}

}  // namespace evalsuite::stats
