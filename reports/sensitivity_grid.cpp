#include "reports/sensitivity_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace evalsuite::reports {

double SensitivityStep(double target) {
  return std::abs(target) <= 1.0 ? kSensitivityStepFraction : kSensitivityStepPercent;
}

std::vector<double> SensitivityThresholds(double target, const std::vector<double>& extra_thresholds) {
  const double step = SensitivityStep(target);
  // The metric's own scale: a fraction or a percentage for a target in [0, 1] or (1, 100]; a lower-is-better metric
  // is stored negated (MLPerf's eval_loss as -loss), so a negative target has no bound to clip the grid to.
  const double scale_min = target >= 0.0 ? 0.0 : -std::numeric_limits<double>::infinity();
  const double scale_max = target < 0.0    ? std::numeric_limits<double>::infinity()
                           : target <= 1.0 ? 1.0
                           : target <= 100 ? 100.0
                                           : std::numeric_limits<double>::infinity();
  std::vector<double> grid;
  for (int k = -kSensitivityStepsBelow; k <= kSensitivityStepsAbove; ++k) {
    // Rounded to 1e-9 so that 0.93 - 4 * 0.0025 is stored as 0.92, not 0.9199999999999999.
    double value = k == 0 ? target : std::round((target + k * step) * 1e9) / 1e9;
    if (value >= scale_min && value <= scale_max) grid.push_back(value);
  }
  for (double extra : extra_thresholds) {
    if (std::isfinite(extra)) grid.push_back(extra);
  }
  std::sort(grid.begin(), grid.end());
  // Near-duplicates (a user's extra threshold equal to a grid point up to rounding) collapse into one; the
  // target wins over its neighbours so that the row marked as the target has exactly the target's value.
  const double tolerance = step * 1e-6;
  std::vector<double> unique;
  for (double value : grid) {
    if (!unique.empty() && std::abs(unique.back() - value) <= tolerance) {
      if (std::abs(value - target) <= tolerance) unique.back() = target;
      continue;
    }
    unique.push_back(value);
  }
  return unique;
}

}  // namespace evalsuite::reports
