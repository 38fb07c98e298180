#include "importer/group_scoring.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/curve.h"
#include "stats/descriptive.h"
#include "stats/olympic.h"

namespace evalsuite::importer {
namespace {

std::optional<double> CovOf(const std::vector<std::optional<double>>& ttas) {
  std::vector<double> reached;
  for (const auto& t : ttas) {
    if (t) reached.push_back(*t);
  }
  if (reached.size() < 2) return std::nullopt;
  const double cov = stats::CoefficientOfVariation(reached);
  if (std::isnan(cov)) return std::nullopt;
  return cov;
}

}  // namespace

void ScoreGroup(ImportedGroup& group, std::size_t drop_each_side) {
  std::vector<std::optional<double>> ttas;
  for (const ImportedRun& run : group.runs) ttas.push_back(run.tta_minutes);
  group.converged = static_cast<std::size_t>(std::count_if(ttas.begin(), ttas.end(), [](auto& t) { return t; }));
  group.olympic_minutes = stats::OlympicMean(ttas, drop_each_side);
  group.cov = CovOf(ttas);
}

std::optional<double> TtaMinutes(const runlog::RunLog& log, double threshold) {
  std::vector<stats::CurvePoint> curve;
  curve.reserve(log.points.size());
  for (const runlog::EvalPoint& p : log.points) curve.push_back({p.train_seconds, p.metric});
  const std::optional<double> seconds = stats::TimeToTarget(curve, threshold);
  if (!seconds) return std::nullopt;
  return *seconds / 60.0;
}

}  // namespace evalsuite::importer
