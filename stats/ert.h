// Expected running time (ERT), from the optimisation-benchmarking literature (COCO): the total time spent
// by all runs, failed ones included, divided by the number of runs that reached the target. It prices in
// the reruns a practitioner needs when some runs miss the target. A run that reached the target spent its
// TTA (AnalyzeStability passes that), a failed run all the time it trained.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace evalsuite::stats {

// nullopt when no run succeeded (ERT is infinite; a failure is never turned into a capped time).
std::optional<double> ExpectedRunningTime(const std::vector<double>& time_spent_per_run, std::size_t successes);

}  // namespace evalsuite::stats
