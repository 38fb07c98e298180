#include "analysis/run_precision.h"

namespace evalsuite::analysis {

std::optional<RunPrecision> RunPrecisionFromJson(const nlohmann::json& record) {
  if (!record.is_object()) return std::nullopt;
  RunPrecision decoded;
  decoded.recorded = record;
  // A field of another type reads as absent (the report read it with json::value, which threw on one).
  if (auto it = record.find("precision"); it != record.end() && it->is_string()) decoded.precision = *it;
  if (auto it = record.find("reason"); it != record.end() && it->is_string()) decoded.reason = *it;
  return decoded;
}

}  // namespace evalsuite::analysis
