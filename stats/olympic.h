// MLPerf Training's olympic mean, as the official result summarizer's _compute_olympic_average does it:
// sort the times, drop `drop_each_side` fastest and slowest and average the rest. A run that did not
// succeed counts as one of the slowest (it is among the dropped ones); more than `drop_each_side` failures
// give no score. MLPerf: drop 1 of 5 (or 10) runs each side; unet3d drops 4 of 40 each side.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace evalsuite::stats {

// `times` holds one entry per run: the time of a successful run, nullopt for a run that did not succeed.
// Returns nullopt when there is no score (too many failures, or too few runs to drop from).
std::optional<double> OlympicMean(const std::vector<std::optional<double>>& times, std::size_t drop_each_side = 1);

}  // namespace evalsuite::stats
