#include "analysis/mlperf_selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "analysis/mlperf_rerun.h"

namespace evalsuite::analysis {
namespace {

// Sample variance, divisor n - 1; 0 for fewer than two values.
double SelectionVariance(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double sum = 0;
  for (double x : v) sum += (x - mean) * (x - mean);
  return sum / static_cast<double>(v.size() - 1);
}

// Mid-rank position in the sorted pool, kept off 0 and 1 so that the likelihood of M is finite. Values within 1e-9
// (relative) are ties: interpolated reference runs that were equal before scaling differ in their last bits after.
double PositionInPool(const std::vector<double>& sorted_pool, double x) {
  const double eps = 1e-9 * std::fabs(x);
  const auto lo = std::lower_bound(sorted_pool.begin(), sorted_pool.end(), x - eps);
  const auto hi = std::upper_bound(sorted_pool.begin(), sorted_pool.end(), x + eps);
  const double less = static_cast<double>(lo - sorted_pool.begin());
  const double equal = static_cast<double>(hi - lo);
  return (less + equal / 2 + 0.5) / (static_cast<double>(sorted_pool.size()) + 1);
}

struct SelectionStatistics {
  double mean_position = 0;
  double variance_ratio = 0;
};

SelectionStatistics StatisticsOf(const std::vector<double>& points, const std::vector<double>& sorted_pool,
                                 double pool_variance) {
  SelectionStatistics s;
  for (double x : points) s.mean_position += PositionInPool(sorted_pool, x);
  s.mean_position /= static_cast<double>(points.size());
  s.variance_ratio = pool_variance > 0 ? SelectionVariance(points) / pool_variance : 0;
  return s;
}

// P(null <= observed) with the simulation's +1 (never 0: a simulated p-value is at least 1 / (draws + 1)). A draw of
// the same runs in another order sums to within rounding of the observed value, and counts as equal: on a reference
// with ties (convergence counted in whole evaluations) such draws are common, and which way the last bit falls must
// not decide the p-value.
double LowerTailP(const std::vector<double>& sorted_null, double observed) {
  const double bound = observed + 1e-9 * std::fabs(observed);
  const auto at_most = std::upper_bound(sorted_null.begin(), sorted_null.end(), bound) - sorted_null.begin();
  return (static_cast<double>(at_most) + 1) / (static_cast<double>(sorted_null.size()) + 1);
}

double LogLikelihoodOfM(std::size_t m, std::size_t n, double u_max) {
  return std::lgamma(static_cast<double>(m) + 1) - std::lgamma(static_cast<double>(m - n) + 1) +
         static_cast<double>(m - n) * std::log1p(-u_max);
}

}  // namespace

SelectionCheck CheckSelection(const std::vector<double>& points, const std::vector<double>& pool,
                              const SelectionSettings& settings, const std::string& source) {
  SelectionCheck out;
  out.runs = points.size();
  if (points.empty()) {
    out.why_not = "no counted run gives its convergence point";
    return out;
  }
  if (pool.size() < 2) {
    out.why_not = fmt::format("{} reference run(s) at the batch size: no distribution to compare with", pool.size());
    return out;
  }
  std::vector<double> sorted_pool = pool;
  std::sort(sorted_pool.begin(), sorted_pool.end());
  const double pool_variance = SelectionVariance(pool);
  const bool spread_testable = points.size() >= 2 && pool_variance > 0;
  out.computed = true;
  for (double x : points) out.positions.push_back(PositionInPool(sorted_pool, x));
  const SelectionStatistics observed = StatisticsOf(points, sorted_pool, pool_variance);
  out.mean_position = observed.mean_position;

  // Null distributions: honest submissions of the same size drawn from the reference runs.
  const std::uint64_t seed = SubmissionSeed(settings.seed ^ 0x5E1EC7ULL, source);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, pool.size() - 1);
  const std::size_t n = points.size();
  std::vector<double> null_position, null_ratio, draw(n);
  null_position.reserve(settings.draws);
  null_ratio.reserve(settings.draws);
  for (std::size_t k = 0; k < settings.draws; ++k) {
    for (double& x : draw) x = pool[pick(rng)];
    const SelectionStatistics s = StatisticsOf(draw, sorted_pool, pool_variance);
    null_position.push_back(s.mean_position);
    null_ratio.push_back(s.variance_ratio);
  }
  std::sort(null_position.begin(), null_position.end());
  std::sort(null_ratio.begin(), null_ratio.end());
  auto flags = [&](const SelectionStatistics& s) {
    if (LowerTailP(null_position, s.mean_position) < settings.alpha / 2) return true;
    return spread_testable && LowerTailP(null_ratio, s.variance_ratio) < settings.alpha / 2;
  };
  out.p_fast = LowerTailP(null_position, observed.mean_position);
  if (spread_testable) {
    out.variance_ratio = observed.variance_ratio;
    out.p_spread = LowerTailP(null_ratio, observed.variance_ratio);
  }
  out.flagged = flags(observed);

  // The flag's false-alarm rate on fresh honest submissions, and its power when the best half of 2N was kept.
  std::size_t false_alarms = 0, detections = 0;
  std::vector<double> doubled(2 * n);
  for (std::size_t h = 0; h < settings.honest; ++h) {
    for (double& x : draw) x = pool[pick(rng)];
    if (flags(StatisticsOf(draw, sorted_pool, pool_variance))) ++false_alarms;
    for (double& x : doubled) x = pool[pick(rng)];
    std::partial_sort(doubled.begin(), doubled.begin() + static_cast<std::ptrdiff_t>(n), doubled.end());
    const std::vector<double> best(doubled.begin(), doubled.begin() + static_cast<std::ptrdiff_t>(n));
    if (flags(StatisticsOf(best, sorted_pool, pool_variance))) ++detections;
  }
  if (settings.honest > 0) {
    out.false_alarm_rate = static_cast<double>(false_alarms) / static_cast<double>(settings.honest);
    out.power_best_half = static_cast<double>(detections) / static_cast<double>(settings.honest);
  }

  // ML M of "best N of M": the kept runs are the N smallest of M uniform positions; the likelihood depends on the
  // largest kept position alone.
  const double u_max = *std::max_element(out.positions.begin(), out.positions.end());
  const std::size_t m_limit = std::max<std::size_t>(200 * n, 1000);
  std::vector<double> log_likelihood;
  for (std::size_t m = n; m <= m_limit; ++m) log_likelihood.push_back(LogLikelihoodOfM(m, n, u_max));
  const auto best = std::max_element(log_likelihood.begin(), log_likelihood.end());
  out.m_hat = n + static_cast<std::size_t>(best - log_likelihood.begin());
  const double cut = *best - 3.841 / 2;  // chi-square(1) 95%: the likelihood-ratio interval
  std::size_t low = out.m_hat, high = out.m_hat;
  while (low > n && log_likelihood[low - 1 - n] >= cut) --low;
  while (high < m_limit && log_likelihood[high + 1 - n] >= cut) ++high;
  out.m_low = low;
  if (high < m_limit) out.m_high = high;
  return out;
}

}  // namespace evalsuite::analysis
