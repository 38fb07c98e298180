// The promise of every interval `evalsuite compare` and the report's pair rows print, checked by seeded simulation
// at the sizes users have: 2, 3, 5, 10 and 20 runs per entry, lognormal TTA with a CoV of 10%, 25% and 40%, equal
// spreads and unequal ones (B's sigma half of A's), without censoring and with a time budget at B's 80% quantile
// (runs slower than it stop there without reaching), A as fast as B and A 20% faster: 24 cells per size.
// Each interval must cover its true value in at least 95% - 3 SE of the cell's simulated comparisons, and over the
// 24 cells pooled; an interval withheld at a size (the output then says how many runs it needs) is counted as
// withheld, and must be withheld at every simulated size where it would not cover.
// The figures of the README's coverage table are what this test prints (ctest -R ComparisonCoverage -V).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <vector>

#include "stats/improvement.h"
#include "stats/median_ratio.h"
#include "stats/restricted_mean.h"
#include "stats/survival.h"

namespace evalsuite::stats {
namespace {

constexpr double kNominal = 0.95;

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Box-Muller from mt19937_64's fixed output: the same draws on every standard library.
class Normal {
 public:
  explicit Normal(std::uint64_t seed) : engine_(seed) {}
  double operator()() {
    if (spare_) {
      const double v = *spare_;
      spare_.reset();
      return v;
    }
    const double u1 = (static_cast<double>(engine_() >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (static_cast<double>(engine_() >> 11) + 0.5) / 9007199254740992.0;
    const double r = std::sqrt(-2 * std::log(u1));
    spare_ = r * std::sin(2 * M_PI * u2);
    return r * std::cos(2 * M_PI * u2);
  }

 private:
  std::mt19937_64 engine_;
  std::optional<double> spare_;
};

struct Cell {
  double cov = 0.25;
  bool unequal = false;
  bool censored = false;
  double ratio = 1;  // true median TTA of A over B
  double sigma_a() const { return std::sqrt(std::log(1 + cov * cov)); }
  double sigma_b() const { return unequal ? sigma_a() / 2 : sigma_a(); }
  double mu_a() const { return std::log(ratio); }
  double budget() const { return censored ? std::exp(0.8416212335729143 * sigma_b()) : INFINITY; }
};

std::vector<Cell> Cells() {
  std::vector<Cell> cells;
  for (double cov : {0.10, 0.25, 0.40}) {
    for (bool unequal : {false, true}) {
      for (bool censored : {false, true}) {
        for (double ratio : {1.0, 0.8}) cells.push_back({cov, unequal, censored, ratio});
      }
    }
  }
  return cells;
}

std::vector<SurvivalObservation> Draw(Normal& normal, int n, double mu, double sigma, double budget) {
  std::vector<SurvivalObservation> runs;
  for (int i = 0; i < n; ++i) {
    const double t = std::exp(mu + sigma * normal());
    runs.push_back(t <= budget ? SurvivalObservation{t, true} : SurvivalObservation{budget, false});
  }
  return runs;
}

std::vector<std::optional<double>> TtaOrNever(const std::vector<SurvivalObservation>& runs) {
  std::vector<std::optional<double>> out;
  for (const auto& o : runs) out.push_back(o.event ? std::optional<double>(o.time) : std::nullopt);
  return out;
}

// P(key_A < key_B) + P(tie) / 2 with a run over the budget as +infinity: the integral over A's log-time density of
// B's survival below the budget, plus half the chance that both exceed it.
double TrueProbabilityAFaster(const Cell& c) {
  const double sa = c.sigma_a(), sb = c.sigma_b(), ma = c.mu_a();
  if (!c.censored) return Phi(-ma / std::hypot(sa, sb));
  const int k = 4000;
  const double lo = ma - 10 * sa, hi = std::log(c.budget()), h = (hi - lo) / k;
  double sum = 0;
  for (int i = 0; i <= k; ++i) {
    const double u = lo + i * h;
    const double f = std::exp(-0.5 * std::pow((u - ma) / sa, 2)) / (sa * std::sqrt(2 * M_PI)) * (1 - Phi(u / sb));
    sum += (i == 0 || i == k ? 0.5 : 1.0) * f;
  }
  return sum * h + 0.5 * (1 - Phi((hi - ma) / sa)) * (1 - Phi(hi / sb));
}

// The true restricted mean difference up to tau: the integral of S_A - S_B (tau never exceeds the budget).
double TrueRestrictedMeanDifference(const Cell& c, double tau) {
  const int k = 400;
  const double h = tau / k;
  double sum = 0;
  for (int i = 1; i <= k; ++i) {
    const double t = i * h;
    const double f = Phi((std::log(t)) / c.sigma_b()) - Phi((std::log(t) - c.mu_a()) / c.sigma_a());
    sum += (i == k ? 0.5 : 1.0) * f;
  }
  return sum * h;
}

struct Tally {
  int covered = 0, given = 0, withheld = 0;
  double Coverage() const { return given ? static_cast<double>(covered) / given : 1.0; }
  void Add(const Tally& t) {
    covered += t.covered;
    given += t.given;
    withheld += t.withheld;
  }
};

double Tolerance(int given) { return 3 * std::sqrt(kNominal * (1 - kNominal) / given); }

// Every cell's coverage, then the pooled one; returns the pooled tally.
Tally CheckCells(const char* interval, int n, const std::vector<Tally>& tallies) {
  Tally pooled;
  const std::vector<Cell> cells = Cells();
  for (std::size_t i = 0; i < tallies.size(); ++i) {
    const Tally& t = tallies[i];
    pooled.Add(t);
    if (t.given == 0) continue;
    EXPECT_GE(t.Coverage(), kNominal - Tolerance(t.given))
        << interval << " at " << n << " runs per entry, CoV " << cells[i].cov << (cells[i].unequal ? " unequal" : "")
        << (cells[i].censored ? " censored" : "") << " ratio " << cells[i].ratio << ": " << t.covered << " of "
        << t.given;
  }
  double worst = 1;
  for (const Tally& t : tallies) worst = t.given ? std::min(worst, t.Coverage()) : worst;
  if (pooled.given > 0) {
    EXPECT_GE(pooled.Coverage(), kNominal - Tolerance(pooled.given)) << interval << " at " << n << " runs, pooled";
    std::printf("coverage | %-34s | %2d runs | pooled %.3f (SE %.3f) | worst cell %.3f | withheld in %d of %d\n",
                interval, n, pooled.Coverage(), std::sqrt(kNominal * (1 - kNominal) / pooled.given), worst,
                pooled.withheld, pooled.withheld + pooled.given);
  } else {
    std::printf("coverage | %-34s | %2d runs | withheld in all %d\n", interval, n, pooled.withheld);
  }
  return pooled;
}

class ComparisonCoverageTest : public ::testing::TestWithParam<int> {};

// P(A faster)'s interval and the restricted mean difference's (at the default horizon, the true difference taken
// at that horizon): cheap, 1,000 comparisons per cell.
TEST_P(ComparisonCoverageTest, ProbabilityAndRestrictedMeanIntervalsCover) {
  const int n = GetParam();
  constexpr int kStudies = 1000;
  std::vector<Tally> probability, restricted;
  Normal normal(20261127 + n);
  for (const Cell& c : Cells()) {
    const double truth_p = TrueProbabilityAFaster(c);
    Tally tp, tr;
    for (int s = 0; s < kStudies; ++s) {
      const auto a = Draw(normal, n, c.mu_a(), c.sigma_a(), c.budget());
      const auto b = Draw(normal, n, 0, c.sigma_b(), c.budget());
      const ImprovementProbability p = ProbabilityOfImprovement(TtaOrNever(a), TtaOrNever(b));
      if (p.interval) {
        ++tp.given;
        tp.covered += p.interval->lower <= truth_p + 1e-12 && truth_p - 1e-12 <= p.interval->upper;
      } else {
        ++tp.withheld;
      }
      const double tau = DefaultHorizon(a, b);
      const RestrictedMeanDifference d = CompareRestrictedMeans(a, b, tau);
      if (d.interval) {
        const double truth = TrueRestrictedMeanDifference(c, tau);
        ++tr.given;
        tr.covered += d.interval->lower <= truth + 1e-9 && truth - 1e-9 <= d.interval->upper;
      } else {
        ++tr.withheld;
      }
    }
    probability.push_back(tp);
    restricted.push_back(tr);
  }
  const Tally p = CheckCells("P(A faster), Newcombe 5 with t", n, probability);
  EXPECT_EQ(p.withheld, 0) << "P(A faster)'s interval is promised from 2 runs per entry";
  const Tally r = CheckCells("restricted mean difference, t", n, restricted);
  // Withheld only where no run of either entry reaches by the horizon, or all that do tie: rare in these cells.
  EXPECT_LT(r.withheld, r.given / 20 + 1);
}

// The median TTA ratio's percentile bootstrap: withheld below kMedianRatioIntervalMinRuns, covering from there.
// 200 comparisons per cell with 300 resamples each (the outputs use 4,000; fewer only add noise to the bounds).
TEST_P(ComparisonCoverageTest, MedianRatioIntervalCoversOrIsWithheld) {
  const int n = GetParam();
  constexpr int kStudies = 200;
  std::vector<Tally> ratio;
  Normal normal(7 + n);
  int seed = 0;
  for (const Cell& c : Cells()) {
    Tally t;
    for (int s = 0; s < kStudies; ++s) {
      const auto a = Draw(normal, n, c.mu_a(), c.sigma_a(), c.budget());
      const auto b = Draw(normal, n, 0, c.sigma_b(), c.budget());
      if (n < static_cast<int>(kMedianRatioIntervalMinRuns)) {
        // Below the minimum nothing is resampled at all: skip the cost, check the promise of withholding.
        const MedianRatio r = BootstrapMedianRatio(a, b, 0.05, 1, ++seed);
        EXPECT_FALSE(r.interval);
        EXPECT_NE(r.withheld.find("at least 5 runs"), std::string::npos) << r.withheld;
        EXPECT_FALSE(r.log_standard_error);
        ++t.withheld;
        continue;
      }
      const MedianRatio r = BootstrapMedianRatio(a, b, 0.05, 300, ++seed);
      if (r.interval) {
        ++t.given;
        t.covered += r.interval->lower <= c.ratio && c.ratio <= r.interval->upper;
      } else {
        ++t.withheld;
      }
    }
    ratio.push_back(t);
  }
  const Tally pooled = CheckCells("median TTA ratio, percentile bootstrap", n, ratio);
  if (n >= static_cast<int>(kMedianRatioIntervalMinRuns)) EXPECT_LT(pooled.withheld, pooled.given / 20 + 1);
}

INSTANTIATE_TEST_SUITE_P(RunsPerEntry, ComparisonCoverageTest, ::testing::Values(2, 3, 5, 10, 20));

// The regression the withholding answers (issue 34, item 3): the percentile bootstrap computed anyway at 2 and 3
// runs per entry covers far below 95% (the issue measured 68% and 91%). Computed here by forcing the resampling,
// so the test fails if the method ever becomes good enough to print there (then lower the minimum).
TEST(ComparisonCoverageRegressionTest, PercentileBootstrapBelowFiveRunsDoesNotCover) {
  // 3 runs per entry, CoV 25%, equal spreads, no censoring, A 20% faster: the resamples' own quantiles.
  Normal normal(99);
  const Cell c{0.25, false, false, 0.8};
  int covered = 0;
  constexpr int kStudies = 400;
  for (int s = 0; s < kStudies; ++s) {
    std::vector<double> ra;
    const auto a = Draw(normal, 3, c.mu_a(), c.sigma_a(), c.budget());
    const auto b = Draw(normal, 3, 0, c.sigma_b(), c.budget());
    std::mt19937_64 engine(1000 + s);
    for (int r = 0; r < 400; ++r) {
      std::vector<SurvivalObservation> xa(3), xb(3);
      for (auto& o : xa) o = a[engine() % 3];
      for (auto& o : xb) o = b[engine() % 3];
      ra.push_back(*KaplanMeierMedian(xa) / *KaplanMeierMedian(xb));
    }
    std::sort(ra.begin(), ra.end());
    const double lower = ra[static_cast<std::size_t>(0.025 * 399)], upper = ra[static_cast<std::size_t>(0.975 * 399)];
    covered += lower <= c.ratio && c.ratio <= upper;
  }
  const double coverage = static_cast<double>(covered) / kStudies;
  std::printf("percentile bootstrap at 3 runs per entry, if it were printed: coverage %.3f\n", coverage);
  EXPECT_LT(coverage, kNominal - Tolerance(kStudies));
}

}  // namespace
}  // namespace evalsuite::stats
