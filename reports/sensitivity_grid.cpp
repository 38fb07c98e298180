#include "reports/sensitivity_grid.h"

#include <algorithm>
#include <cmath>

namespace evalsuite::reports {

double SensitivityStep(double target) { return target <= 1.0 ? kSensitivityStepFraction : kSensitivityStepPercent; }

std::vector<double> SensitivityThresholds(double target, const std::vector<double>& extra_thresholds) {
  const double step = SensitivityStep(target);
  const double scale_max = target <= 1.0 ? 1.0 : 100.0;
  std::vector<double> grid;
  for (int k = -kSensitivityStepsBelow; k <= kSensitivityStepsAbove; ++k) {
    // Rounded to 1e-9 so that 0.93 - 4 * 0.0025 is stored as 0.92, not 0.9199999999999999.
    double value = k == 0 ? target : std::round((target + k * step) * 1e9) / 1e9;
    if (value >= 0.0 && value <= scale_max) grid.push_back(value);
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
