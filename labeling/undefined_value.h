// A rate or mean with nothing to divide by (no items, no judged controls) is NaN in the labeling structs and
// null in their JSON: agreement.cpp and second_pass.cpp share the two halves of that rule.
#pragma once

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace evalsuite::labeling {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline nlohmann::json NumberOrNull(double value) {
  return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

}  // namespace evalsuite::labeling
