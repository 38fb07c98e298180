#include "reports/value_format.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "common/figure_format.h"

namespace evalsuite::reports {

const char* const kMissing = "—";

std::optional<double> Finite(std::optional<double> value) {
  return value && std::isfinite(*value) ? value : std::nullopt;
}

std::string FormatMagnitude(std::optional<double> value) {
  value = Finite(value);
  return value ? FormatFigure(*value) : kMissing;
}

std::string FormatMagnitude(double value) { return FormatMagnitude(std::optional<double>(value)); }

std::string FormatPercent(std::optional<double> share, int decimals) {
  share = Finite(share);
  return share ? FormatShareAsPercent(*share, decimals) : kMissing;
}

std::string FormatPercent(double share, int decimals) { return FormatPercent(std::optional<double>(share), decimals); }

std::string FormatPercentInterval(std::optional<double> value, const std::optional<stats::Interval>& interval,
                                  int decimals) {
  if (!Finite(value)) return kMissing;
  std::string text = FormatPercent(value, decimals);
  if (!interval || !Finite(interval->lower)) return text;
  std::string upper_text = Finite(interval->upper) ? FormatPercent(interval->upper, decimals) + "]" : std::string("∞)");
  return fmt::format("{} [{}, {}", text, FormatPercent(interval->lower, decimals), upper_text);
}

std::string FormatMagnitudeInterval(std::optional<double> value, std::optional<double> lower,
                                    std::optional<double> upper) {
  if (!Finite(value)) return kMissing;
  std::string text = FormatMagnitude(value);
  if (!Finite(lower)) return text;
  std::string upper_text = Finite(upper) ? FormatMagnitude(upper) + "]" : std::string("∞)");
  return fmt::format("{} [{}, {}", text, FormatMagnitude(lower), upper_text);
}

std::string KaplanMeierMedianText(const stats::KaplanMeierCurve& kaplan_meier, std::size_t runs) {
  const std::optional<double> median = Finite(kaplan_meier.median), lower = Finite(kaplan_meier.median_lower),
                              upper = Finite(kaplan_meier.median_upper);
  if (!median) return kMissing;
  if (!lower || upper) return FormatMagnitudeInterval(median, lower, upper);
  return fmt::format("{} [{}, upper bound not estimable with {} runs]", FormatMagnitude(median), FormatMagnitude(lower),
                     runs);
}

std::string FormatThreshold(std::optional<double> value) {
  value = Finite(value);
  if (!value) return kMissing;
  return fmt::format("{:.6g}", *value);
}

std::string FormatThreshold(double value) { return FormatThreshold(std::optional<double>(value)); }

std::string FormatCount(std::size_t value) { return std::to_string(value); }

std::string FormatPValue(std::optional<double> value) {
  const std::optional<double> number = Finite(value);
  if (!number) return kMissing;
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
