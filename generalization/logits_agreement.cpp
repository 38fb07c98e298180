#include "generalization/logits_agreement.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace evalsuite::generalization {
namespace {

std::vector<int64_t> TopClasses(const float* row, int64_t cols, int64_t k) {
  std::vector<int64_t> order(static_cast<size_t>(cols));
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [row](int64_t a, int64_t b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
  order.resize(static_cast<size_t>(k));
  return order;
}

}  // namespace

bool RewrittenLogitsAgree(const std::vector<float>& expected, const std::vector<float>& actual, int64_t rows,
                          int64_t cols) {
  if (rows <= 0 || cols <= 0) return false;
  const auto size = static_cast<size_t>(rows * cols);
  if (expected.size() != size || actual.size() != size) return false;
  double scale = 0;
  for (float v : expected) {
    if (!std::isfinite(v)) return false;
    scale = std::max(scale, static_cast<double>(std::fabs(v)));
  }
  for (size_t i = 0; i < size; ++i) {
    if (!std::isfinite(actual[i])) return false;
    if (std::fabs(static_cast<double>(actual[i]) - expected[i]) > kLogitsRelativeTolerance * scale) return false;
  }
  const int64_t k = std::min<int64_t>(5, cols);
  for (int64_t r = 0; r < rows; ++r) {
    if (TopClasses(expected.data() + r * cols, cols, k) != TopClasses(actual.data() + r * cols, cols, k)) {
      return false;
    }
  }
  return true;
}

}  // namespace evalsuite::generalization
