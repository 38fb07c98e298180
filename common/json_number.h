// Numbers into JSON (the report model, the hardware rows): JSON has no infinity or NaN, so every non-finite or absent
// value becomes null. Readers of report.json see null for "undefined" (too few runs) and for "unbounded".
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

namespace evalsuite {

inline nlohmann::json JsonNumber(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

inline nlohmann::json JsonNumber(const std::optional<double>& value) {
  return value ? JsonNumber(*value) : nlohmann::json(nullptr);
}

}  // namespace evalsuite
