#include "runlog/run_log_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evalsuite::runlog {
namespace {

std::string Where(const std::string& source, const EvalPoint& point, std::size_t index) {
  if (point.line > 0) return fmt::format("{}:{}", source, point.line);
  return fmt::format("{}: evaluation {}", source, index + 1);
}

std::string Number(double v) { return fmt::format("{:.6g}", v); }

// Why a point breaks a rule, or "" when it keeps them all. `previous` is the last point kept.
std::string Problem(const EvalPoint& p, const EvalPoint* previous, const std::optional<MetricScale>& scale) {
  if (!std::isfinite(p.train_seconds) || p.train_seconds < 0) {
    return "training time " + Number(p.train_seconds) + " s is not a finite number >= 0";
  }
  if (!std::isfinite(p.wall_seconds) || p.wall_seconds < 0) {
    return "wall time " + Number(p.wall_seconds) + " s is not a finite number >= 0";
  }
  if (!std::isfinite(p.epoch) || p.epoch < 0) return "epoch " + Number(p.epoch) + " is not a finite number >= 0";
  if (!std::isfinite(p.metric)) return "metric " + Number(p.metric) + " is not a finite number";
  if (scale && (p.metric < scale->low || p.metric > scale->high)) {
    return "metric " + Number(p.metric) + " is not " + scale->name;
  }
  if (previous != nullptr && p.train_seconds < previous->train_seconds) {
    return "training time " + Number(p.train_seconds) + " s goes backwards (the evaluation before it was at " +
           Number(previous->train_seconds) + " s)";
  }
  if (previous != nullptr && p.epoch < previous->epoch) {
    return "epoch " + FormatEpoch(p.epoch) + " comes after epoch " + FormatEpoch(previous->epoch) + " (out of order)";
  }
  return "";
}

}  // namespace

MetricScale FractionScale() { return MetricScale{}; }

void CheckRunLog(RunLog& log, const std::string& source, const std::optional<MetricScale>& scale, bool check_order) {
  std::vector<EvalPoint> kept;
  kept.reserve(log.points.size());
  for (std::size_t i = 0; i < log.points.size(); ++i) {
    const EvalPoint& p = log.points[i];
    const std::string problem = Problem(p, kept.empty() || !check_order ? nullptr : &kept.back(), scale);
    if (problem.empty()) {
      kept.push_back(p);
    } else {
      log.warnings.push_back(Where(source, p, i) + ": " + problem + "; evaluation skipped");
    }
  }
  log.points = std::move(kept);
  if (!std::isfinite(log.train_seconds) || log.train_seconds < 0) {
    log.warnings.push_back(source + ": total training time " + Number(log.train_seconds) +
                           " s is not a finite number >= 0; the last evaluation's time is used");
    log.train_seconds = log.points.empty() ? 0.0 : log.points.back().train_seconds;
  }
  if (!std::isfinite(log.wall_seconds) || log.wall_seconds < 0) {
    log.wall_seconds = log.points.empty() ? 0.0 : log.points.back().wall_seconds;
  }
  // A run's time span holds its evaluations: an end record whose total is shorter than an evaluation's time is
  // contradicted by it, and TTA must never lie past the run's end.
  // A total that falls short by rounding alone (219.434 s against an evaluation's 219.434 s one ulp later, the same
  // clock read and summed twice) is no contradiction: a microsecond, or a part in 10^9, is below any logger's clock.
  double last = 0;
  for (const EvalPoint& p : log.points) last = std::max(last, p.train_seconds);
  if (last > log.train_seconds) {
    const double rounding = std::max(1e-6, 1e-9 * last);
    if (log.train_seconds > 0 && last - log.train_seconds > rounding) {  // 0: no total logged
      log.warnings.push_back(source + ": total training time " + Number(log.train_seconds) +
                             " s is shorter than an evaluation's (" + Number(last) +
                             " s); the run's time is taken as " + Number(last) + " s");
    }
    log.train_seconds = last;
  }

  // An end record that contradicts the evaluations: the evaluations decide TTA, and the user hears of it.
  const auto threshold = log.header.find("threshold");
  if (threshold == log.header.end() || !threshold->is_number()) return;
  const double target = threshold->get<double>();
  bool reaches = false;
  for (const EvalPoint& p : log.points) reaches = reaches || p.metric >= target;
  if (log.status == analysis::EndedAs::kNotReached && reaches) {
    log.warnings.push_back(source +
                           ": the end record says not_reached, but an evaluation is at or above the "
                           "threshold " +
                           Number(target) + "; TTA is taken from the evaluations");
  } else if (log.status == analysis::EndedAs::kReached && !reaches) {
    log.warnings.push_back(source +
                           ": the end record says reached, but no evaluation is at or above the "
                           "threshold " +
                           Number(target) + "; TTA is taken from the evaluations");
  }
}

std::optional<MetricScale> DeclaredMetricScale(const nlohmann::json& header, const std::string& where,
                                               std::vector<std::string>* warnings) {
  const auto range = header.find("metric_range");
  if (range == header.end()) return FractionScale();
  auto bound = [](const nlohmann::json& v, double fallback) -> std::optional<double> {
    if (v.is_null()) return fallback;
    if (v.is_number() && std::isfinite(v.get<double>())) return v.get<double>();
    return std::nullopt;
  };
  if (range->is_array() && range->size() == 2) {
    const auto low = bound((*range)[0], -std::numeric_limits<double>::infinity());
    const auto high = bound((*range)[1], std::numeric_limits<double>::infinity());
    if (low && high && *low <= *high) {
      return MetricScale{*low, *high, "within the header's metric_range " + range->dump()};
    }
  }
  if (warnings != nullptr) {
    warnings->push_back(where +
                        ": header field \"metric_range\" must be [low, high] (numbers or null, low <= high), "
                        "got " +
                        range->dump() + "; a fraction in [0, 1] is assumed");
  }
  return FractionScale();
}

}  // namespace evalsuite::runlog
