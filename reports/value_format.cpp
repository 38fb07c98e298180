#include "reports/value_format.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "common/json_access.h"

namespace evalsuite::reports {

const char* const kMissing = "—";

std::string FormatMagnitude(const nlohmann::json& value) {
  auto number = NumberOf(value);
  if (!number || !std::isfinite(*number)) return kMissing;
  double v = *number, magnitude = std::abs(v);
  if (magnitude >= 1000) return fmt::format("{:.0f}", v);
  if (magnitude >= 100) return fmt::format("{:.1f}", v);
  if (magnitude >= 1 || magnitude == 0) return fmt::format("{:.2f}", v);
  return fmt::format("{:.4f}", v);
}

std::string FormatPercent(const nlohmann::json& share, int decimals) {
  auto number = NumberOf(share);
  if (!number || !std::isfinite(*number)) return kMissing;
  return fmt::format("{:.{}f}%", *number * 100, decimals);
}

std::string FormatPercentInterval(const nlohmann::json& value, const nlohmann::json& lower, const nlohmann::json& upper,
                                  int decimals) {
  if (!NumberOf(value)) return kMissing;
  std::string text = FormatPercent(value, decimals);
  if (!NumberOf(lower)) return text;
  std::string upper_text = NumberOf(upper) ? FormatPercent(upper, decimals) + "]" : std::string("∞)");
  return fmt::format("{} [{}, {}", text, FormatPercent(lower, decimals), upper_text);
}

std::string FormatMagnitudeInterval(const nlohmann::json& value, const nlohmann::json& lower,
                                    const nlohmann::json& upper) {
  if (!NumberOf(value)) return kMissing;
  std::string text = FormatMagnitude(value);
  if (!NumberOf(lower)) return text;
  std::string upper_text = NumberOf(upper) ? FormatMagnitude(upper) + "]" : std::string("∞)");
  return fmt::format("{} [{}, {}", text, FormatMagnitude(lower), upper_text);
}

std::string KaplanMeierMedianText(const nlohmann::json& kaplan_meier, const nlohmann::json& runs) {
  const nlohmann::json& median = Field(kaplan_meier, "median");
  const nlohmann::json& lower = Field(kaplan_meier, "median_lower");
  const nlohmann::json& upper = Field(kaplan_meier, "median_upper");
  if (!NumberOf(median)) return kMissing;
  if (!NumberOf(lower) || NumberOf(upper)) return FormatMagnitudeInterval(median, lower, upper);
  const std::string with = NumberOf(runs) ? " with " + runs.dump() + " runs" : "";
  return fmt::format("{} [{}, upper bound not estimable{}]", FormatMagnitude(median), FormatMagnitude(lower), with);
}

std::string FormatThreshold(const nlohmann::json& value) {
  auto number = NumberOf(value);
  if (!number || !std::isfinite(*number)) return kMissing;
  return fmt::format("{:.6g}", *number);
}

std::string FormatPValue(const nlohmann::json& value) {
  auto number = NumberOf(value);
  if (!number || !std::isfinite(*number)) return kMissing;
  if (*number < 1e-4) return "< 0.0001";
  return fmt::format("{:.4g}", *number);
}

std::string TimeUnitSymbol(const std::string& unit) {
  if (unit == "seconds") return "s";
  if (unit == "minutes") return "min";
  if (unit == "hours") return "h";
  return unit;
}

std::string ProgressUnitSymbol(const std::string& unit) {
  if (unit.empty() || unit == "epochs") return "ep";
  if (unit == "evaluations") return "evals";
  return unit;
}

std::string ProgressUnitHeading(const std::string& unit) {
  std::string name = unit.empty() ? "epochs" : unit;
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name + " to target";
}

}  // namespace evalsuite::reports
