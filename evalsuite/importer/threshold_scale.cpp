#include "evalsuite/importer/threshold_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

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

namespace {

bool SameTarget(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

bool Combined(const BenchmarkRule& rule) { return rule.name == "maskrcnn" || rule.name == "stable_diffusion"; }

}  // namespace

std::string ShownMlperfTarget(const BenchmarkRule& rule) {
  if (!rule.target) return "";
  if (rule.name == "maskrcnn") return "BBOX >= 0.377 and SEGM >= 0.339";
  if (rule.name == "stable_diffusion") return "FID <= 90 and CLIP >= 0.15";
  return fmt::format("{} {} {:g}", rule.metric, rule.lower_is_better ? "<=" : ">=", *rule.target);
}

MlperfThreshold ResolveMlperfThreshold(double given, const BenchmarkRule* rule, const std::string& where) {
  const std::string typed = fmt::format("{:g}", given);
  if (!std::isfinite(given)) {
    throw UsageError("--threshold", typed + " is not a number (" + where + ")");
  }
  MlperfThreshold out;
  if (rule == nullptr || !rule->target) {
    out.stored = out.as_logged = given;
    out.shown = fmt::format("{} >= {}", rule != nullptr ? rule->metric : "eval_accuracy", typed);
    return out;
  }
  const std::optional<MlperfTarget> target = StoredTarget(*rule);
  if (Combined(*rule)) {
    if (given <= 0) {
      throw UsageError("--threshold", fmt::format("{} is not a target of {}'s combined metric {} (1 = the rules' "
                                                  "targets {}) in {}",
                                                  typed, rule->name, target->metric, ShownMlperfTarget(*rule), where));
    }
    out.stored = out.as_logged = given;
    out.shown = fmt::format("{} >= {}", target->metric, typed);
    out.official = SameTarget(given, 1.0);
    if (!out.official) {
      out.note = fmt::format("--threshold {} read on {}'s combined scale {}, where 1 is the rules' target ({})", typed,
                             rule->name, target->metric, ShownMlperfTarget(*rule));
    }
    return out;
  }
  const bool fraction = *rule->target <= 1 && *rule->target >= 0;
  if (rule->lower_is_better) {
    if (given < 0) {
      throw UsageError("--threshold", fmt::format("{} for {} in {}: {} is lower-is-better and the target is written as "
                                                  "the log writes it (the rules' is {:g}): give {:g}, not its negation",
                                                  typed, rule->name, where, rule->metric, *rule->target, -given));
    }
    double value = given;
    if (rule->name == "rnnt") {  // WER: a fraction, or a percentage read as one
      const ResolvedThreshold resolved = ResolveThreshold(given, false, rule->metric, where);
      value = resolved.value;
      out.note = resolved.note;
    }
    out.as_logged = value;
    out.stored = rule->name == "rnnt" ? 1.0 - value : -value;
    out.shown = fmt::format("{} <= {:g}", rule->metric, value);
    out.official = SameTarget(value, *rule->target);
    return out;
  }
  double value = given;
  if (fraction) {
    const ResolvedThreshold resolved = ResolveThreshold(given, false, rule->metric, where);
    value = resolved.value;
    out.note = resolved.note;
  }
  out.as_logged = out.stored = value;
  out.shown = fmt::format("{} >= {:g}", rule->metric, value);
  out.official = SameTarget(value, *rule->target);
  return out;
}

}  // namespace evalsuite::importer
