// The generalization chart of the HTML report: per image set, each model's top-1 (filled) and top-5 (hollow)
// accuracy on the unseen images with their 95% intervals, one row per model, rows grouped by the model's
// group (data-chart="generalization-accuracy"). Drawn from the section's JSON (generalization_section.h).
#pragma once

#include <string>

#include "reports/generalization_section.h"

namespace evalsuite::reports {

std::string GeneralizationAccuracyChart(const ImageSetModel& image_set);

}  // namespace evalsuite::reports
