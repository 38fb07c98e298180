// The thresholds a report evaluates besides the target, to show how much TTA depends on where the target sits
// (the DAWNBench analysis notes that sensitivity). Default grid: target + k * step for k = -4..+2, where step
// is 0.0025 for metrics on a [0, 1] scale (|target| <= 1) and 0.25 otherwise; the
// grid leans below the target because thresholds above it are often never reached. Values outside the
// metric's scale ([0, 1] or [0, 100]; none for a lower-is-better metric stored negated, whose target is negative)
// are dropped; the entry's extra thresholds are added; the result is
// sorted and free of near-duplicates, and always contains the target itself.
#pragma once

#include <vector>

namespace evalsuite::reports {

constexpr int kSensitivityStepsBelow = 4;
constexpr int kSensitivityStepsAbove = 2;
constexpr double kSensitivityStepFraction = 0.0025;
constexpr double kSensitivityStepPercent = 0.25;
// The grid's rule as the report states it.
inline constexpr const char* kSensitivityGridRule =
    "target + k * step for k in -4..+2 (step 0.0025 for [0, 1] metrics, 0.25 for percent metrics), inside the "
    "metric's scale, plus the entry's extra thresholds";

// The step of the default grid for a metric whose target is `target`.
double SensitivityStep(double target);

std::vector<double> SensitivityThresholds(double target, const std::vector<double>& extra_thresholds);

}  // namespace evalsuite::reports
