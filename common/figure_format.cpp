#include "common/figure_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace evalsuite {
namespace {

// Decimals that show `significant` digits of `value` (finite, not 0) in fixed notation, and at least `at_least`.
int DecimalsFor(double value, int significant, int at_least) {
  const int leading = static_cast<int>(std::floor(std::log10(std::abs(value))));  // 0.029 -> -2, 12.3 -> 1
  int decimals = std::max(at_least, significant - 1 - leading);
  // Rounding can carry into a new leading digit (0.09996 -> "0.1000"): that still shows enough digits.
  return std::min(decimals, 17);
}

std::string NonFinite(double value) {
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

}  // namespace

std::string FormatFigure(double value) {
  if (!std::isfinite(value)) return NonFinite(value);
  const double magnitude = std::abs(value);
  // Above 1 the bands keep four digits where the old tables had them (123.4 s, 12.34 s) and never fewer than three.
  if (magnitude >= 1000) return fmt::format("{:.0f}", value);
  if (magnitude >= 100) return fmt::format("{:.1f}", value);
  if (magnitude >= 1 || magnitude == 0) return fmt::format("{:.2f}", value);
  return fmt::format("{:.{}f}", value, DecimalsFor(value, kMinSignificantDigits, 4));
}

std::string FormatShareAsPercent(double share, int decimals) {
  if (!std::isfinite(share)) return NonFinite(share);
  const double percent = 100 * share;
  if (percent == 0) return fmt::format("{:.{}f}%", percent, decimals);
  return fmt::format("{:.{}f}%", percent, DecimalsFor(percent, kMinSignificantDigits, decimals));
}

}  // namespace evalsuite
