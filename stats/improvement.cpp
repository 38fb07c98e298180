#include "stats/improvement.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// A run that never reached sorts after every run that did: +infinity, and two of them compare equal.
double Key(const std::optional<double>& tta) { return tta ? *tta : std::numeric_limits<double>::infinity(); }

// The Mann-Whitney count over all a x b pairs, by sorting b once and looking each x up in it: O((m + n) log n) where
// the pairs are m n (25 million per pair of 5,000-run entries, and a report compares every pair of entries). Counted
// in whole half-wins, so the figure is exactly the pairwise sum's. A NaN wins and ties nothing, as x < y and x == y
// are false for it.
double PairProbability(const std::vector<double>& a, std::vector<double> b) {
  const double pairs = static_cast<double>(a.size()) * static_cast<double>(b.size());
  b.erase(std::remove_if(b.begin(), b.end(), [](double y) { return std::isnan(y); }), b.end());
  std::sort(b.begin(), b.end());
  std::uint64_t half_wins = 0;  // 2 per y > x, 1 per y == x
  for (double x : a) {
    if (std::isnan(x)) continue;
    const auto [equal_begin, equal_end] = std::equal_range(b.begin(), b.end(), x);
    half_wins +=
        2 * static_cast<std::uint64_t>(b.end() - equal_end) + static_cast<std::uint64_t>(equal_end - equal_begin);
  }
  return static_cast<double>(half_wins) / 2 / pairs;
}

// Newcombe's V(theta) (Hanley and McNeil's variance with his N* = (m + n) / 2 - 1).
double NewcombeVariance(double theta, double m, double n) {
  const double n_star = (m + n) / 2 - 1;
  return theta * (1 - theta) / (m * n) * (1 + (n_star - 1) * ((1 - theta) / (2 - theta) + theta / (1 + theta)));
}

}  // namespace

Interval NewcombeInterval(double theta_hat, std::size_t m, std::size_t n, double alpha) {
  if (m < 1 || n < 1 || m + n < 3) throw std::invalid_argument("Newcombe interval: needs m + n >= 3");
  const double q = boost::math::quantile(boost::math::students_t(static_cast<double>(m + n - 2)), 1 - alpha / 2);
  const double dm = static_cast<double>(m), dn = static_cast<double>(n);
  // Inside the interval where g <= 0. g(theta_hat) = -q^2 V <= 0; at theta_hat = 0 or 1 V vanishes too, so the
  // bisection starts from a point just inside, where g < 0 (V > 0 there and the squared distance is smaller).
  auto g = [&](double theta) {
    return (theta_hat - theta) * (theta_hat - theta) - q * q * NewcombeVariance(theta, dm, dn);
  };
  auto bound = [&](double outside, double inside) {
    if (g(outside) <= 0) return outside;
    for (int i = 0; i < 200 && std::abs(outside - inside) > 1e-15; ++i) {
      const double mid = (outside + inside) / 2;
      (g(mid) > 0 ? outside : inside) = mid;
    }
    return (outside + inside) / 2;
  };
  constexpr double kInside = 1e-12;
  const double start = std::clamp(theta_hat, kInside, 1 - kInside);
  return {theta_hat <= 0 ? 0.0 : bound(0, start), theta_hat >= 1 ? 1.0 : bound(1, start)};
}

ImprovementProbability ProbabilityOfImprovement(const std::vector<std::optional<double>>& a,
                                                const std::vector<std::optional<double>>& b, double alpha) {
  if (a.empty() || b.empty()) throw std::invalid_argument("ProbabilityOfImprovement: both entries need runs");
  std::vector<double> ka, kb;
  for (const auto& t : a) ka.push_back(Key(t));
  for (const auto& t : b) kb.push_back(Key(t));
  ImprovementProbability result;
  result.alpha = alpha;
  result.probability = PairProbability(ka, kb);
  if (ka.size() < kImprovementIntervalMinRuns || kb.size() < kImprovementIntervalMinRuns) {
    result.withheld =
        "interval withheld: it needs at least " + std::to_string(kImprovementIntervalMinRuns) + " runs of each entry";
    return result;
  }
  result.interval = NewcombeInterval(result.probability, ka.size(), kb.size(), alpha);
  return result;
}

std::vector<ExpectedBest> ExpectedBestOfN(const std::vector<std::optional<double>>& tta, std::size_t max_n) {
  std::vector<std::size_t> ns;
  for (std::size_t n = 1; n <= max_n; ++n) ns.push_back(n);
  return ExpectedBestOfN(tta, ns);
}

std::vector<ExpectedBest> ExpectedBestOfN(const std::vector<std::optional<double>>& tta,
                                          const std::vector<std::size_t>& ns) {
  std::vector<double> reached;
  for (const auto& t : tta) {
    if (t) reached.push_back(*t);
  }
  std::sort(reached.begin(), reached.end());
  const double total = static_cast<double>(tta.size());
  const double failures = total - static_cast<double>(reached.size());
  std::vector<ExpectedBest> out;
  for (std::size_t n : ns) {
    if (tta.empty()) break;
    ExpectedBest best;
    best.n = n;
    const double exponent = static_cast<double>(n);
    best.none_reach = std::pow(failures / total, exponent);
    if (!reached.empty()) {
      // P(min of n = v(i)) = P(all n draws rank >= i) - P(all rank > i), ranks over all N runs (failures last).
      double sum = 0;
      for (std::size_t i = 0; i < reached.size(); ++i) {
        const double at_or_after = (total - static_cast<double>(i)) / total;
        const double after = (total - static_cast<double>(i) - 1) / total;
        sum += reached[i] * (std::pow(at_or_after, exponent) - std::pow(after, exponent));
      }
      best.expected_tta = sum / (1 - best.none_reach);
    }
    out.push_back(best);
  }
  return out;
}

}  // namespace evalsuite::stats
