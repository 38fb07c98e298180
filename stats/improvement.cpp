#include "stats/improvement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

// A run that never reached sorts after every run that did: +infinity, and two of them compare equal.
double Key(const std::optional<double>& tta) { return tta ? *tta : std::numeric_limits<double>::infinity(); }

double PairProbability(const std::vector<double>& a, const std::vector<double>& b) {
  double wins = 0;
  for (double x : a) {
    for (double y : b) wins += x < y ? 1.0 : x == y ? 0.5 : 0.0;
  }
  return wins / (static_cast<double>(a.size()) * static_cast<double>(b.size()));
}

// The q quantile by linear interpolation between order statistics (numpy's default, "linear").
double Quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

}  // namespace

ImprovementProbability ProbabilityOfImprovement(const std::vector<std::optional<double>>& a,
                                                const std::vector<std::optional<double>>& b, double alpha,
                                                std::size_t resamples, std::uint64_t seed) {
  if (a.empty() || b.empty()) throw std::invalid_argument("ProbabilityOfImprovement: both entries need runs");
  std::vector<double> ka, kb;
  for (const auto& t : a) ka.push_back(Key(t));
  for (const auto& t : b) kb.push_back(Key(t));
  ImprovementProbability result;
  result.probability = PairProbability(ka, kb);
  result.resamples = resamples;
  result.seed = seed;
  if (resamples == 0) {
    result.interval = {result.probability, result.probability};
    return result;
  }
  // mt19937_64's output is fixed by the standard; an index by modulo keeps the draws identical on every library
  // (uniform_int_distribution's algorithm is not specified). The bias is below 2^-50 for a few hundred runs.
  std::mt19937_64 engine(seed);
  std::vector<double> estimates, ra(ka.size()), rb(kb.size());
  estimates.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    for (double& x : ra) x = ka[engine() % ka.size()];
    for (double& y : rb) y = kb[engine() % kb.size()];
    estimates.push_back(PairProbability(ra, rb));
  }
  result.interval = {Quantile(estimates, alpha / 2), Quantile(estimates, 1 - alpha / 2)};
  return result;
}

std::vector<ExpectedBest> ExpectedBestOfN(const std::vector<std::optional<double>>& tta, std::size_t max_n) {
  std::vector<double> reached;
  for (const auto& t : tta) {
    if (t) reached.push_back(*t);
  }
  std::sort(reached.begin(), reached.end());
  const double total = static_cast<double>(tta.size());
  const double failures = total - static_cast<double>(reached.size());
  std::vector<ExpectedBest> out;
  for (std::size_t n = 1; n <= max_n && !tta.empty(); ++n) {
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
