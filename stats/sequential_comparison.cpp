#include "stats/sequential_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace evalsuite::stats {

SequentialComparisonDesign::SequentialComparisonDesign(int min_runs, int max_runs, double alpha)
    : min_runs_(min_runs),
      max_runs_(max_runs),
      alpha_(alpha),
      boundaries_(BlockwiseBoundaries(min_runs, max_runs, alpha)) {}

double SequentialComparisonDesign::CriticalZ(int runs_per_entry) const {
  if (runs_per_entry < min_runs_ || runs_per_entry > max_runs_) {
    throw std::invalid_argument("sequential comparison: no look at " + std::to_string(runs_per_entry) + " runs");
  }
  return boundaries_[static_cast<std::size_t>(runs_per_entry - min_runs_)].critical_z;
}

SequentialDecision SequentialComparisonDesign::Decide(const std::vector<SurvivalObservation>& a,
                                                      const std::vector<SurvivalObservation>& b) const {
  SequentialDecision d;
  const int available = static_cast<int>(std::min({a.size(), b.size(), static_cast<std::size_t>(max_runs_)}));
  for (int n = min_runs_; n <= available; ++n) {
    const std::vector<SurvivalObservation> first_a(a.begin(), a.begin() + n), first_b(b.begin(), b.begin() + n);
    const LogRankResult test = LogRankTest(first_a, first_b);
    SequentialLook look{n, test.permutation_z, CriticalZ(n),
                        test.permutation_variance > 0 && std::abs(test.permutation_z) >= CriticalZ(n)};
    d.looks.push_back(look);
    d.runs_per_entry = n;
    d.critical_z = look.critical_z;
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "|z| = %.2f %s the boundary %.2f at look %zu (%d runs per entry)",
                  std::abs(look.z), look.crossed ? "reached" : "is below", look.critical_z, d.looks.size(), n);
    if (look.crossed) {
      d.stop = true;
      d.result = look.z > 0 ? "A faster" : "B faster";
      d.reason = std::string("stopped early: ") + numbers;
      return d;
    }
    if (n == max_runs_) {
      d.stop = true;
      d.result = "no difference shown";
      d.reason = std::string("stopped at max_runs: ") + numbers;
      return d;
    }
    d.reason = std::string("goes on: ") + numbers;
  }
  if (d.looks.empty()) {
    d.reason = "goes on: the first look comes at " + std::to_string(min_runs_) + " runs per entry";
  }
  return d;
}

}  // namespace evalsuite::stats
