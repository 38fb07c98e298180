// An estimate that too few values leave undefined (a standard deviation of one run, an agreement with no items) is
// NaN throughout stats/: one constant for every file, so that a unity batch may hold any of them together.
#pragma once

#include <limits>

namespace evalsuite::stats {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace evalsuite::stats
