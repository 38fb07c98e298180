#include "stats/brunner_munzel.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

namespace evalsuite::stats {
namespace {

// The pooled runs sorted once: each run's value (never reached = +infinity), its pooled midrank, and the blocks of
// tied values, so that any split into two entries gives its within-entry midranks in one pass.
struct Pooled {
  std::vector<double> value;           // by run, A's first
  std::vector<double> midrank;         // pooled, by run
  std::vector<std::size_t> order;      // runs by value
  std::vector<std::size_t> block_end;  // for each position in `order`, one past its tie block
};

Pooled Pool(const std::vector<SurvivalObservation>& a, const std::vector<SurvivalObservation>& b) {
  Pooled p;
  for (const auto* group : {&a, &b}) {
    for (const auto& o : *group) p.value.push_back(o.event ? o.time : std::numeric_limits<double>::infinity());
  }
  const std::size_t n = p.value.size();
  p.order.resize(n);
  std::iota(p.order.begin(), p.order.end(), 0);
  std::stable_sort(p.order.begin(), p.order.end(),
                   [&](std::size_t x, std::size_t y) { return p.value[x] < p.value[y]; });
  p.midrank.assign(n, 0);
  p.block_end.assign(n, 0);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && p.value[p.order[j]] == p.value[p.order[i]]) ++j;
    for (std::size_t k = i; k < j; ++k) {
      p.midrank[p.order[k]] = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
      p.block_end[k] = j;
    }
    i = j;
  }
  return p;
}

struct Statistic {
  double probability = 0.5, statistic = 0, standard_error = 0;
  bool defined = false;
};

// t for the split `in_a` (true: the run belongs to A).
Statistic Compute(const Pooled& p, const std::vector<char>& in_a, std::size_t na, std::size_t nb) {
  const std::size_t n = p.value.size();
  // Within-entry midranks: walk the tie blocks, counting each entry's runs before and inside each block.
  std::vector<double> within(n);
  double seen_a = 0, seen_b = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t end = p.block_end[i];
    double block_a = 0, block_b = 0;
    for (std::size_t k = i; k < end; ++k) (in_a[p.order[k]] ? block_a : block_b) += 1;
    for (std::size_t k = i; k < end; ++k) {
      const std::size_t run = p.order[k];
      within[run] = in_a[run] ? seen_a + (block_a + 1) / 2 : seen_b + (block_b + 1) / 2;
    }
    seen_a += block_a;
    seen_b += block_b;
    i = end;
  }
  double sum_a = 0, sum_b = 0;
  for (std::size_t r = 0; r < n; ++r) (in_a[r] ? sum_a : sum_b) += p.midrank[r];
  const double ma = static_cast<double>(na), mb = static_cast<double>(nb);
  const double mean_a = sum_a / ma, mean_b = sum_b / mb;
  double squares_a = 0, squares_b = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (in_a[r]) {
      const double d = p.midrank[r] - within[r] - mean_a + (ma + 1) / 2;
      squares_a += d * d;
    } else {
      const double d = p.midrank[r] - within[r] - mean_b + (mb + 1) / 2;
      squares_b += d * d;
    }
  }
  Statistic s;
  s.probability = (mean_b - (mb + 1) / 2) / ma;
  double variance = squares_a / ((ma - 1) * mb * mb) / ma + squares_b / ((mb - 1) * ma * ma) / mb;
  if (!(variance > 0)) {
    if (s.probability == 0.5) return s;  // every run tied: nothing to test
    variance = 1 / (4 * ma * mb);        // the entries do not overlap (see the header)
  }
  s.standard_error = std::sqrt(variance);
  s.statistic = (s.probability - 0.5) / s.standard_error;
  s.defined = true;
  return s;
}

double Choose(std::size_t n, std::size_t k) {
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
  return c;
}

}  // namespace

BrunnerMunzelResult BrunnerMunzelTest(const std::vector<SurvivalObservation>& a,
                                      const std::vector<SurvivalObservation>& b) {
  BrunnerMunzelResult result;
  const std::size_t na = a.size(), nb = b.size();
  if (na < 2 || nb < 2) return result;
  const Pooled pooled = Pool(a, b);
  std::vector<char> in_a(na + nb, 0);
  std::fill(in_a.begin(), in_a.begin() + static_cast<std::ptrdiff_t>(na), 1);
  const Statistic observed = Compute(pooled, in_a, na, nb);
  result.probability = observed.probability;
  if (!observed.defined) return result;
  result.defined = true;
  result.statistic = observed.statistic;
  result.standard_error = observed.standard_error;
  result.degrees_of_freedom = static_cast<double>(std::min(na, nb) - 1);
  const std::size_t n = na + nb;
  if (Choose(n, na) <= kExactSplits) {
    // Every split of the pooled runs into n_A and n_B, as the combinations of A's positions in lexicographic order.
    std::vector<std::size_t> pick(na);
    std::iota(pick.begin(), pick.end(), 0);
    double splits = 0, as_extreme = 0;
    const double bound = std::abs(observed.statistic) * (1 - 1e-12);
    while (true) {
      std::fill(in_a.begin(), in_a.end(), 0);
      for (std::size_t i : pick) in_a[i] = 1;
      const Statistic s = Compute(pooled, in_a, na, nb);
      splits += 1;
      if (s.defined && std::abs(s.statistic) >= bound) as_extreme += 1;
      std::size_t i = na;
      while (i > 0 && pick[i - 1] == n - na + i - 1) --i;
      if (i == 0) break;
      ++pick[i - 1];
      for (std::size_t j = i; j < na; ++j) pick[j] = pick[j - 1] + 1;
    }
    result.p_value = as_extreme / splits;
    result.exact = true;
  } else {
    const boost::math::students_t t(result.degrees_of_freedom);
    result.p_value = 2 * boost::math::cdf(boost::math::complement(t, std::abs(result.statistic)));
  }
  return result;
}

int BrunnerMunzelVerdict(const BrunnerMunzelResult& result, double alpha) {
  if (!result.defined || result.p_value > alpha) return 0;
  return result.statistic > 0 ? 1 : -1;
}

}  // namespace evalsuite::stats
