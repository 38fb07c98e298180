// An entry's statistics (stats/stability_statistics.h) from its counted runs: TTA, epochs to target where every
// counted run logged epochs, and the split of TTA's variation between them. The report and `study show` both compute
// them here, so the two read the same numbers. Bad run data is a user-data error naming the entry
// (common/stats_boundary.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "stats/stability.h"
#include "stats/stability_statistics.h"

namespace evalsuite::reports {

// `curves`: the counted runs in training time; `epoch_curves`: the same runs against epochs, nullopt when a counted
// run has no epochs (then so are epochs to target and the decomposition).
stats::EntryStatistics AnalyzeEntryRuns(const std::string& entry_name, const std::vector<stats::RunCurve>& curves,
                                        const std::optional<std::vector<stats::RunCurve>>& epoch_curves,
                                        double threshold, std::size_t consecutive);

}  // namespace evalsuite::reports
