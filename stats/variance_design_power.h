// How many levels a crossed variance design needs to tell two sources' variance components apart. In a balanced
// crossed design with every factor at L levels and R repeats per cell, a factor's mean square has expectation
// sigma_e^2 + n sigma_a^2 with n = L^(k-1) R runs per level, and (L - 1) MS / E[MS] is chi-square with L - 1 degrees
// of freedom (normal random effects, no interactions). So MS_a / MS_b is theta F(L-1, L-1) with theta the ratio of the
// expectations, and "a and b differ" is the two-sided F test of theta = 1 (Searle, Casella & McCulloch 1992, ch. 4).
// Its power at the estimated components answers "how many levels does the next study need". Checked by simulation
// in tests/stats/variance_design_power_test.cpp.
#pragma once

#include <optional>

namespace evalsuite::stats {

struct LevelsQuestion {
  double variance_a = 0;  // the two components to tell apart
  double variance_b = 0;
  double residual = 0;  // the residual variance (what the same seeds do twice)
  int factors = 2;      // k: the sources the design varies (crossed, each at the same number of levels)
  int repeats = 1;      // R: runs per cell with identical seeds
  double alpha = 0.05;  // the two-sided test's level
  double power = 0.8;   // the probability of telling them apart that "needs" asks for
  int max_levels = 30;  // search no further: a design of more levels is not a study anyone runs
};

// The power of the two-sided F test at L levels (L >= 2).
double PowerToTellApart(const LevelsQuestion& question, int levels);

// The smallest L in [2, max_levels] whose power reaches question.power; nullopt when none does (equal components
// never do).
std::optional<int> LevelsToTellApart(const LevelsQuestion& question);

}  // namespace evalsuite::stats
