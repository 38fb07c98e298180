// Group-sequential boundaries for a two-sided test that is looked at many times (after every block of runs):
// Lan and DeMets' (1983) alpha-spending approach with the O'Brien-Fleming-type spending function, alpha / 2 on
// each side as R's ldbounds and gsDesign spend it:
//   alpha*(t) = 2 (2 - 2 Phi(z_{1-alpha/4} / sqrt(t))),  t = information fraction in (0, 1],
// so that the chance of ever crossing a boundary when there is no difference is alpha, however many looks are
// taken (the looks need not be planned; each spends alpha*(t_k) - alpha*(t_{k-1})). The critical values come from
// the joint normal law of the standardized statistics (Z_j, Z_k correlated sqrt(t_j / t_k): independent
// increments), integrated numerically look by look as in Jennison and Turnbull (2000), "Group Sequential Methods
// with Applications to Clinical Trials", ch. 19 (Armitage, McPherson and Rowe 1969). Equally spaced looks,
// K = 5, alpha 0.05 give 4.877, 3.357, 2.680, 2.290, 2.031, the values R's ldbounds and gsDesign print.
#pragma once

#include <vector>

namespace evalsuite::stats {

// The O'Brien-Fleming-type spending function: cumulative alpha spent by information fraction t (0 at t = 0,
// alpha at t >= 1).
double ObrienFlemingSpending(double t, double alpha);

struct SequentialBoundary {
  double information_fraction = 0;
  double cumulative_alpha = 0;  // alpha*(t)
  double critical_z = 0;        // |Z| at or beyond this stops; a huge value where almost nothing was spent
};

// One boundary per look. `information_fractions` strictly increasing in (0, 1]; alpha in (0, 1). Throws
// std::invalid_argument otherwise.
std::vector<SequentialBoundary> GroupSequentialBoundaries(const std::vector<double>& information_fractions,
                                                          double alpha);

// The looks of a study that looks after every block from min_runs to max_runs runs per entry: information
// fraction n / max_runs (runs per entry stand in for the statistic's information, which for the log-rank test
// grows with the events; the error-rate simulations in tests/stats check that the approximation keeps alpha).
std::vector<SequentialBoundary> BlockwiseBoundaries(int min_runs, int max_runs, double alpha);

}  // namespace evalsuite::stats
