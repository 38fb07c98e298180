// How many levels a variance design needs to tell two sources apart (stats/variance_design_power.h): the power
// against scipy's F distribution, and against simulated crossed designs.
#include "stats/variance_design_power.h"

#include <gtest/gtest.h>

#include <boost/math/distributions/fisher_f.hpp>
#include <cmath>
#include <random>

namespace evalsuite::stats {
namespace {

// Expected values from scipy 1.10:
//   def power(va, vb, ve, k, R, L, alpha=0.05):
//     n = L**(k-1)*R; th = (ve+n*va)/(ve+n*vb); df = L-1
//     return f.sf(f.ppf(1-alpha/2,df,df)/th,df,df) + f.cdf(f.ppf(alpha/2,df,df)/th,df,df)
TEST(VarianceDesignPowerTest, AgreesWithScipy) {
  LevelsQuestion q;
  q.variance_a = 0.02;
  q.variance_b = 0.005;
  q.residual = 0.004;
  q.factors = 3;
  q.repeats = 2;
  EXPECT_NEAR(PowerToTellApart(q, 3), 0.09690060723718377, 1e-9);
  EXPECT_NEAR(PowerToTellApart(q, 5), 0.20739389084824217, 1e-9);
  EXPECT_EQ(LevelsToTellApart(q), 19);  // scipy: the first L in 2..30 with power >= 0.8
  q.variance_b = q.variance_a;
  q.factors = 2;
  EXPECT_NEAR(PowerToTellApart(q, 4), 0.05, 1e-9);  // equal components: the test's level
  EXPECT_FALSE(LevelsToTellApart(q));
}

// Simulated crossed designs of two sources at the levels the question asks for: the F test of their mean squares
// rejects "equal" about as often as PowerToTellApart says (within 3 binomial standard errors).
TEST(VarianceDesignPowerTest, SimulatedPowerMatches) {
  LevelsQuestion q;
  q.variance_a = 0.03;
  q.variance_b = 0.003;
  q.residual = 0.004;
  q.factors = 2;
  q.repeats = 2;
  const std::optional<int> levels = LevelsToTellApart(q);
  ASSERT_TRUE(levels);
  const int L = *levels, R = q.repeats, trials = 2000;
  const double predicted = PowerToTellApart(q, L);
  const boost::math::fisher_f f(L - 1, L - 1);
  const double upper = boost::math::quantile(f, 0.975), lower = boost::math::quantile(f, 0.025);
  std::mt19937_64 generator(55);
  std::normal_distribution<double> normal(0.0, 1.0);
  int rejected = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> a(L), b(L);
    for (int l = 0; l < L; ++l) a[l] = std::sqrt(q.variance_a) * normal(generator);
    for (int l = 0; l < L; ++l) b[l] = std::sqrt(q.variance_b) * normal(generator);
    std::vector<double> mean_a(L, 0), mean_b(L, 0);
    double grand = 0;
    const double n = static_cast<double>(L) * L * R;
    for (int i = 0; i < L; ++i) {
      for (int j = 0; j < L; ++j) {
        for (int r = 0; r < R; ++r) {
          const double y = a[i] + b[j] + std::sqrt(q.residual) * normal(generator);
          mean_a[i] += y / (L * R);
          mean_b[j] += y / (L * R);
          grand += y / n;
        }
      }
    }
    double ss_a = 0, ss_b = 0;
    for (int l = 0; l < L; ++l) {
      ss_a += L * R * (mean_a[l] - grand) * (mean_a[l] - grand);
      ss_b += L * R * (mean_b[l] - grand) * (mean_b[l] - grand);
    }
    const double ratio = ss_a / ss_b;
    rejected += ratio > upper || ratio < lower ? 1 : 0;
  }
  const double observed = static_cast<double>(rejected) / trials;
  std::printf("levels %d: predicted power %.3f, simulated %.3f\n", L, predicted, observed);
  EXPECT_GE(predicted, 0.8);
  EXPECT_NEAR(observed, predicted, 3 * std::sqrt(predicted * (1 - predicted) / trials));
}

}  // namespace
}  // namespace evalsuite::stats
