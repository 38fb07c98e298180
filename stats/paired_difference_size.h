// How many paired items an interval for the accuracy difference of two classifiers needs before it excludes a
// bound: the holdout size that would decide a non-inferiority question that the images at hand leave open.
// Normal approximation at the observed rates (the per-image variance of the paired difference is
// p10 + p01 - d^2, with half a count added to each discordant cell so that no observed disagreement still has a
// variance); the same shape as the runs-needed figure of the stability verdict (stats/cov_interval.h).
#pragma once

#include <cstddef>
#include <optional>

namespace evalsuite::stats {

// The fewest n (at most `most`) for which, if the true difference and disagreement are the observed ones
// (only_a, only_b discordant of n), a two-sided 100(1 - alpha)% interval of the difference lies wholly on the
// observed difference's side of `bound` (above it when the observed difference is above, below it when below)
// with probability `assurance` (0.5: even odds). nullopt when the observed difference equals the bound, n is 0, or more
// than `most` items would be needed.
std::optional<std::size_t> PairedItemsToExclude(std::size_t only_a, std::size_t only_b, std::size_t n, double bound,
                                                double alpha, double assurance, std::size_t most = 100000000);

}  // namespace evalsuite::stats
