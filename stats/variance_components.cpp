#include "stats/variance_components.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>

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

// -2 x the REML log-likelihood (without its constant) at variances `v` (factors, then the residual), and mu's
// generalized least-squares estimate. V = sum_k v_k Z_k Z_k' + v_e I; the fixed part is the mean alone, so
// -2 l = log|V| + log(1'V^-1 1) + y'V^-1 y - (1'V^-1 y)^2 / 1'V^-1 1. Infinity where V is not positive definite.
double MinusTwoRemlLogLikelihood(const IndexedDesign& d, const std::vector<double>& y, const std::vector<double>& v,
                                 double* mean) {
  const size_t n = y.size(), factors = d.level.size();
  std::vector<double> chol(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j <= i; ++j) {
      double entry = i == j ? v[factors] : 0.0;
      for (size_t k = 0; k < factors; ++k) entry += d.level[k][i] == d.level[k][j] ? v[k] : 0.0;
      chol[i * n + j] = entry;
    }
  }
  // In-place Cholesky (lower triangle): V = L L'.
  double log_det = 0;
  for (size_t j = 0; j < n; ++j) {
    double diagonal = chol[j * n + j];
    for (size_t p = 0; p < j; ++p) diagonal -= chol[j * n + p] * chol[j * n + p];
    if (!(diagonal > 0)) return std::numeric_limits<double>::infinity();
    const double root = std::sqrt(diagonal);
    chol[j * n + j] = root;
    log_det += 2 * std::log(root);
    for (size_t i = j + 1; i < n; ++i) {
      double entry = chol[i * n + j];
      for (size_t p = 0; p < j; ++p) entry -= chol[i * n + p] * chol[j * n + p];
      chol[i * n + j] = entry / root;
    }
  }
  // Forward solves L a = 1 and L b = y: 1'V^-1 1 = a'a, 1'V^-1 y = a'b, y'V^-1 y = b'b.
  std::vector<double> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    double sa = 1.0, sb = y[i];
    for (size_t p = 0; p < i; ++p) sa -= chol[i * n + p] * a[p], sb -= chol[i * n + p] * b[p];
    a[i] = sa / chol[i * n + i];
    b[i] = sb / chol[i * n + i];
  }
  double aa = 0, ab = 0, bb = 0;
  for (size_t i = 0; i < n; ++i) aa += a[i] * a[i], ab += a[i] * b[i], bb += b[i] * b[i];
  if (mean) *mean = ab / aa;
  return log_det + std::log(aa) + bb - ab * ab / aa;
}

// Nelder-Mead (Lagarias et al. 1998's coefficients) from `start`, until the simplex's values agree to 1e-10.
std::vector<double> MinimizeNelderMead(const std::function<double(const std::vector<double>&)>& f,
                                       std::vector<double> start, double step) {
  const size_t dims = start.size();
  std::vector<std::vector<double>> simplex(dims + 1, start);
  for (size_t i = 0; i < dims; ++i) simplex[i + 1][i] += step;
  std::vector<double> values(dims + 1);
  for (size_t i = 0; i <= dims; ++i) values[i] = f(simplex[i]);
  for (int iteration = 0; iteration < 4000; ++iteration) {
    std::vector<size_t> order(dims + 1);
    for (size_t i = 0; i <= dims; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&values](size_t x, size_t z) { return values[x] < values[z]; });
    const size_t best = order.front(), worst = order.back(), second_worst = order[dims - 1];
    if (std::abs(values[worst] - values[best]) < 1e-10 * (1 + std::abs(values[best]))) break;
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
    const std::vector<double> reflected = along(-1.0);
    const double reflected_value = f(reflected);
    if (reflected_value < values[best]) {
      const std::vector<double> expanded = along(-2.0);
      const double expanded_value = f(expanded);
      const bool expand = expanded_value < reflected_value;
      simplex[worst] = expand ? expanded : reflected;
      values[worst] = expand ? expanded_value : reflected_value;
    } else if (reflected_value < values[second_worst]) {
      simplex[worst] = reflected, values[worst] = reflected_value;
    } else {
      const bool outside = reflected_value < values[worst];
      const std::vector<double> contracted = along(outside ? -0.5 : 0.5);
      const double contracted_value = f(contracted);
      if (contracted_value < std::min(reflected_value, values[worst])) {
        simplex[worst] = contracted, values[worst] = contracted_value;
      } else {  // shrink towards the best
        for (size_t i = 0; i <= dims; ++i) {
          if (i == best) continue;
          for (size_t d = 0; d < dims; ++d) simplex[i][d] = simplex[best][d] + 0.5 * (simplex[i][d] - simplex[best][d]);
          values[i] = f(simplex[i]);
        }
      }
    }
  }
  return simplex[static_cast<size_t>(std::min_element(values.begin(), values.end()) - values.begin())];
}

struct Fit {
  std::vector<double> variances;  // factors, then residual
  double mean = 0;
};

// REML over the log variances, restarted once from its own optimum (Nelder-Mead can stall on a ridge). Variances
// under 1e-9 of the total are the boundary: 0.
Fit FitReml(const IndexedDesign& d, const std::vector<double>& y, const std::vector<double>& start_variances) {
  double y_var = 0, y_mean = 0;
  for (double value : y) y_mean += value / static_cast<double>(y.size());
  for (double value : y) y_var += (value - y_mean) * (value - y_mean) / static_cast<double>(y.size() - 1);
  const double scale = y_var > 0 ? y_var : 1.0;
  const double floor = std::log(scale * 1e-12);
  auto objective = [&](const std::vector<double>& theta) {
    std::vector<double> v(theta.size());
    for (size_t k = 0; k < theta.size(); ++k) v[k] = std::exp(std::max(theta[k], floor));
    return MinusTwoRemlLogLikelihood(d, y, v, nullptr);
  };
  std::vector<double> theta;
  for (double v : start_variances) theta.push_back(std::log(std::max(v, scale * 1e-6)));
  theta = MinimizeNelderMead(objective, theta, 1.0);
  theta = MinimizeNelderMead(objective, theta, 0.5);
  Fit fit;
  double total = 0;
  for (double t : theta) fit.variances.push_back(std::exp(std::max(t, floor))), total += fit.variances.back();
  for (double& v : fit.variances) v = v < 1e-9 * total ? 0.0 : v;
  fit.variances.back() = std::max(fit.variances.back(), 1e-300);  // the residual is never exactly 0 in V
  MinusTwoRemlLogLikelihood(d, y, fit.variances, &fit.mean);
  if (fit.variances.back() < 1e-9 * total) fit.variances.back() = 0;
  return fit;
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
      out.withheld = design.factors[k] + " has a level of its own for every run: its variance cannot be told from "
                                         "the residual (repeats with the same seeds are needed)";
      return out;
    }
  }
  double y_mean = 0, y_var = 0;
  for (double value : design.y) y_mean += value / static_cast<double>(n);
  for (double value : design.y) y_var += (value - y_mean) * (value - y_mean) / static_cast<double>(n - 1);
  const Fit fit = FitReml(indexed, design.y, std::vector<double>(factors + 1, y_var / static_cast<double>(factors + 1)));
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
    const Fit refit = FitReml(indexed, y, fit.variances);
    double total = 0;
    for (double v : refit.variances) total += v;
    for (size_t k = 0; k <= factors; ++k) {
      variances[k].push_back(refit.variances[k]);
      shares[k].push_back(total > 0 ? refit.variances[k] / total : 0.0);
    }
  }
  const double tail = (1 - options.confidence) / 2;
  for (size_t k = 0; k <= factors; ++k) {
    out.components[k].variance_interval =
        Interval{SampleQuantile(variances[k], tail), SampleQuantile(variances[k], 1 - tail)};
    out.components[k].share_interval = Interval{SampleQuantile(shares[k], tail), SampleQuantile(shares[k], 1 - tail)};
  }
  out.bootstrap_replicates = options.bootstrap_replicates;
  return out;
}

}  // namespace evalsuite::stats
