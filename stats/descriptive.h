// Descriptive statistics of a sample: n, mean, median, sample standard deviation (n-1), min, max.
// An empty sample gives NaN for every value; one value gives standard deviation NaN.
#pragma once

#include <cstddef>
#include <vector>

namespace evalsuite::stats {

struct Summary {
  std::size_t n = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;  // sample standard deviation, divisor n-1
  double min = 0;
  double max = 0;
};

Summary Summarize(const std::vector<double>& values);
double Median(std::vector<double> values);
// Sample coefficient of variation s / mean; NaN for fewer than two values.
double CoefficientOfVariation(const std::vector<double>& values);

}  // namespace evalsuite::stats
