// Which of an entry's runs count in its statistics, and a run's curve in training time or in epochs, for the
// report's RunInput: store/run_counting.h decides, and every figure of the report (stability, comparison, sequential
// decisions) reads it through here.
#pragma once

#include <string>

#include "reports/report_input.h"
#include "stats/stability.h"

namespace evalsuite::reports {

// Not "did_not_run", and not a study's "incomplete" attempt (an imported run without its end counts, MLPerf's rule).
bool CountsInStatistics(const RunInput& run, const std::string& source);

// The run's curve in training time; time_spent is at least its last evaluation's time.
stats::RunCurve ToRunCurve(const RunInput& run);

// Whether the run's log gave every evaluation's epoch.
bool HasEpochs(const RunInput& run);

// The run's curve against epochs instead of training time (HasEpochs must hold).
stats::RunCurve ToEpochCurve(const RunInput& run);

}  // namespace evalsuite::reports
