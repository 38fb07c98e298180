// Scoring shared by every import format: the olympic mean, count of converged runs and CoV of a group's TTAs,
// and a run's TTA from its stored curve.
#pragma once

#include <cstddef>
#include <optional>

#include "importer/import_result.h"

namespace evalsuite::importer {

// Sets group.converged, olympic_minutes and cov from the runs' tta_minutes.
void ScoreGroup(ImportedGroup& group, std::size_t drop_each_side);

// First point at or above the threshold, in minutes of the points' train_seconds.
std::optional<double> TtaMinutes(const runlog::RunLog& log, double threshold);

}  // namespace evalsuite::importer
