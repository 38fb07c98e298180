#include "importer/threshold_scale.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "importer/run_identity.h"

namespace evalsuite::importer {

ResolvedThreshold ResolveThreshold(double given, bool percent, const std::string& metric, const std::string& file) {
  // The rule for every rate (run_identity.h); an MLPerf or DAWNBench target is a higher-is-better rate here.
  const ThresholdOnScale read = ThresholdOnMetricScale(given, MetricScaleDecision{true, percent}, metric, ">=", file);
  return {read.value, read.note};
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
