#include "stats/ert.h"

#include <numeric>

namespace evalsuite::stats {

std::optional<double> ExpectedRunningTime(const std::vector<double>& time_spent_per_run, std::size_t successes) {
  if (successes == 0) {
    return std::nullopt;
  }
  const double total = std::accumulate(time_spent_per_run.begin(), time_spent_per_run.end(), 0.0);
  return total / static_cast<double>(successes);
}

}  // namespace evalsuite::stats
