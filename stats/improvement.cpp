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

// P(x < y) + P(x == y) / 2 over all pairs, as counts: 2 * wins = sum over a of (2 * #b above + #b equal), an integer,
// so the result is the exact double the all-pairs sum gives (every partial sum of 1s and halves is exact), in
// O(n log n) instead of the nA * nB comparisons that made a report of 500-run entries take minutes.
double PairProbabilityFromCounts(std::uint64_t twice_wins, std::size_t na, std::size_t nb) {
  return static_cast<double>(twice_wins) * 0.5 / (static_cast<double>(na) * static_cast<double>(nb));
}

// The values of a and b on one sorted scale of distinct values; `a_level[i]` is a[i]'s place on it.
struct Levels {
  std::size_t count = 0;
  std::vector<std::size_t> a_level, b_level;
};

Levels LevelsOf(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> values(a);
  values.insert(values.end(), b.begin(), b.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  Levels levels;
  levels.count = values.size();
  auto place = [&](double x) {
    return static_cast<std::size_t>(std::lower_bound(values.begin(), values.end(), x) - values.begin());
  };
  for (double x : a) levels.a_level.push_back(place(x));
  for (double y : b) levels.b_level.push_back(place(y));
  return levels;
}

// 2 * wins from how many draws of a and of b sit at each level; `above` is scratch space.
std::uint64_t TwiceWins(const std::vector<std::uint32_t>& a_count, const std::vector<std::uint32_t>& b_count,
                        std::vector<std::uint64_t>& above) {
  const std::size_t levels = a_count.size();
  above.assign(levels + 1, 0);
  for (std::size_t v = levels; v-- > 0;) above[v] = above[v + 1] + b_count[v];
  std::uint64_t twice = 0;
  for (std::size_t v = 0; v < levels; ++v) {
    if (a_count[v] != 0) twice += a_count[v] * (2 * above[v + 1] + b_count[v]);
  }
  return twice;
}

// x % d without a 64-bit division (the bootstrap draws hundreds of millions of indices for a report of 20 entries of
// 500 runs): q = floor(x * floor((2^64 - 1) / d) / 2^64) is at most 2 below x / d, and the remainder is corrected
// up to twice, so the result is x % d exactly (a test checks the intervals against draws by %).
class FastModulo {
 public:
  explicit FastModulo(std::uint64_t d) : d_(d), m_(~std::uint64_t{0} / d) {}
  std::uint64_t operator()(std::uint64_t x) const {
    const auto q = static_cast<std::uint64_t>((static_cast<unsigned __int128>(x) * m_) >> 64);
    std::uint64_t r = x - q * d_;
    while (r >= d_) r -= d_;
    return r;
  }

 private:
  std::uint64_t d_, m_;
};

bool AnyNan(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); });
}

// The all-pairs sum, kept for values that do not sort (NaN compares false both ways).
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
  const bool sortable = !AnyNan(ka) && !AnyNan(kb);
  const Levels levels = sortable ? LevelsOf(ka, kb) : Levels{};
  std::vector<std::uint32_t> a_count(levels.count), b_count(levels.count);
  std::vector<std::uint64_t> above;
  if (sortable) {
    for (std::size_t level : levels.a_level) ++a_count[level];
    for (std::size_t level : levels.b_level) ++b_count[level];
    result.probability = PairProbabilityFromCounts(TwiceWins(a_count, b_count, above), ka.size(), kb.size());
  } else {
    result.probability = PairProbability(ka, kb);
  }
  result.resamples = resamples;
  result.seed = seed;
  if (resamples == 0) {
    result.interval = {result.probability, result.probability};
    return result;
  }
  // mt19937_64's output is fixed by the standard; an index by modulo keeps the draws identical on every library
  // (uniform_int_distribution's algorithm is not specified). The bias is below 2^-50 for a few hundred runs.
  // A resample is counted by level (the same draws, in the same order, as drawing the values themselves).
  std::mt19937_64 engine(seed);
  const FastModulo a_index(ka.size()), b_index(kb.size());
  std::vector<double> estimates, ra, rb;
  estimates.reserve(resamples);
  if (!sortable) {
    ra.resize(ka.size());
    rb.resize(kb.size());
  }
  for (std::size_t r = 0; r < resamples; ++r) {
    if (!sortable) {
      for (double& x : ra) x = ka[engine() % ka.size()];
      for (double& y : rb) y = kb[engine() % kb.size()];
      estimates.push_back(PairProbability(ra, rb));
      continue;
    }
    std::fill(a_count.begin(), a_count.end(), 0);
    std::fill(b_count.begin(), b_count.end(), 0);
    for (std::size_t i = 0; i < ka.size(); ++i) ++a_count[levels.a_level[a_index(engine())]];
    for (std::size_t i = 0; i < kb.size(); ++i) ++b_count[levels.b_level[b_index(engine())]];
    estimates.push_back(PairProbabilityFromCounts(TwiceWins(a_count, b_count, above), ka.size(), kb.size()));
  }
  result.interval = {Quantile(estimates, alpha / 2), Quantile(estimates, 1 - alpha / 2)};
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
