#include "stats/olympic.h"

#include <algorithm>

namespace evalsuite::stats {

// Mirrors mlperf_logging's result_summarizer: scores.sort(); countable = scores[d : N - (d - failures)];
// None when too many runs failed or nothing is left to average.
std::optional<double> OlympicMean(const std::vector<std::optional<double>>& times, std::size_t drop_each_side) {
  std::vector<double> scores;
  std::size_t failures = 0;
  for (const auto& t : times) {
    if (t) {
      scores.push_back(*t);
    } else {
      ++failures;
    }
  }
  if (failures > drop_each_side) {
    return std::nullopt;
  }
  std::sort(scores.begin(), scores.end());
  // Failures are the slowest runs, already out of `scores`: drop only the rest of the slow side.
  const std::size_t begin = drop_each_side;
  const std::size_t drop_slow = drop_each_side - failures;
  if (scores.size() < begin + drop_slow + 1) {
    return std::nullopt;
  }
  const std::size_t end = scores.size() - drop_slow;
  double sum = 0;
  for (std::size_t i = begin; i < end; ++i) {
    sum += scores[i];
  }
  return sum / static_cast<double>(end - begin);
}

}  // namespace evalsuite::stats
