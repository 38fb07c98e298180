#include "evalsuite/importer/threshold_scale.h"

#include <fmt/format.h>

#include <cmath>

#include "evalsuite/common/error.h"

namespace evalsuite::importer {

ResolvedThreshold ResolveThreshold(double given, bool percent, const std::string& metric, const std::string& file) {
  const std::string typed = fmt::format("{:g}", given);
  if (!std::isfinite(given) || given < 0 || given > 100) {
    throw UsageError("--threshold",
                     fmt::format("{} is off the scale of {} in {} ({}); give a fraction in [0, 1] or "
                                 "a percentage in [0, 100]",
                                 typed, metric, file, percent ? "a percentage in [0, 100]" : "a fraction in [0, 1]"));
  }
  if (percent && given <= 1) {
    return {given * 100, fmt::format("--threshold {} read as a fraction: {} is in percent, so the target is {} >= "
                                     "{:g} %",
                                     typed, metric, metric, given * 100)};
  }
  if (percent) {
    // Both scales are plausible here: say which one it was read on.
    return {given, fmt::format("--threshold {} read as a percentage: the target is {} >= {} % ({:g} as a "
                               "fraction)",
                               typed, metric, typed, given / 100)};
  }
  if (given > 1) {
    return {given / 100, fmt::format("--threshold {} read as a percentage: {} is a fraction, so the target is {} "
                                     ">= {:g}",
                                     typed, metric, metric, given / 100)};
  }
  return {given, ""};
}

}  // namespace evalsuite::importer
