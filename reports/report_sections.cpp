#include "reports/report_sections.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <set>
#include <utility>

#include "common/json_number.h"
#include "common/stats_boundary.h"
#include "reports/stats_json.h"
#include "stats/improvement.h"
#include "stats/stability_statistics.h"

namespace evalsuite::reports {
using nlohmann::json;

ThresholdNoiseModel ThresholdNoise(const analysis::Entry& entry, const std::vector<double>& thresholds,
                                   const std::vector<stats::RunCurve>& curves) {
  // Crossed, then fell back below the target at a later evaluation: a first crossing within the noise.
  std::size_t fell_back = 0;
  for (const stats::RunCurve& curve : curves) {
    const std::optional<double> first = stats::TimeToTarget(curve.points, entry.threshold);
    if (!first) continue;
    for (const stats::CurvePoint& p : curve.points) {
      if (p.time > *first && p.metric < entry.threshold) {
        ++fell_back;
        break;
      }
    }
  }
  ThresholdNoiseModel noise;
  noise.runs_fell_back = fell_back;
  const json& size = entry.extra.is_object() && entry.extra.contains("validation_size") ? entry.extra["validation_size"]
                                                                                        : json(nullptr);
  if (!size.is_number() || size.get<double>() < 1) return noise;
  const double n = size.get<double>();
  const bool percent = entry.threshold > 1;
  const double p = percent ? entry.threshold / 100 : entry.threshold;
  if (!(p >= 0 && p <= 1)) return noise;
  const double se = std::sqrt(p * (1 - p) / n) * (percent ? 100 : 1);
  noise.validation_size = size;
  if (std::isfinite(se)) noise.standard_error = se;  // report.json has null for what is not finite
  for (double t : thresholds) {
    if (t != entry.threshold && std::abs(t - entry.threshold) < se) noise.thresholds_within.push_back(t);
  }
  noise.target_within_noise_of_grid = !noise.thresholds_within.empty();
  return noise;
}

std::vector<stats::ExpectedBest> ExpectedBest(const stats::StabilityStats& stats) {
  // A few n tell the story: 1 (one honest run), small n, and every run.
  std::vector<std::size_t> ns;
  for (std::size_t n : {1, 2, 3, 5, 10}) {
    if (n <= stats.runs) ns.push_back(n);
  }
  if (stats.runs > 0 && std::find(ns.begin(), ns.end(), stats.runs) == ns.end()) ns.push_back(stats.runs);
  return stats::ExpectedBestOfN(stats.tta, ns);
}

std::vector<EntryComparisonModel> EntryComparisons(const std::vector<ComparedEntry>& entries) {
  std::vector<EntryComparisonModel> rows;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    for (std::size_t j = i + 1; j < entries.size(); ++j) {
      const ComparedEntry& a = entries[i];
      const ComparedEntry& b = entries[j];
      if (a.tta.empty() || b.tta.empty() || a.metric != b.metric || a.threshold != b.threshold ||
          a.time_unit != b.time_unit) {
        continue;
      }
      const stats::ImprovementProbability poi = StatsOnUserData(EntryField(a.name) + " and " + EntryField(b.name), [&] {
        return stats::ProbabilityOfImprovement(a.tta, b.tta);
      });
      // The same function and inputs as the pair rows and `compare` (stats/improvement.h): one figure.
      rows.push_back({a.name, b.name, a.tta.size(), b.tta.size(), poi});
    }
  }
  return rows;
}

std::vector<MethodModel> Methods() {
  auto method = [](const std::string& name, const std::string& formula, const std::string& source) {
    return MethodModel{name, formula, source};
  };
  std::vector<MethodModel> methods(
      {method("Time to accuracy (TTA)",
              "training time at the first evaluation at or above the target (or the first of k consecutive ones)",
              "Coleman et al. 2017, DAWNBench")});
  // Each statistic's methods, in the table's order; one that two statistics share is listed once.
  std::set<std::string> listed;
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    for (const stats::StatisticMethod& m : statistic.methods) {
      if (listed.insert(m.name).second) methods.push_back(method(m.name, m.formula, m.source));
    }
  }
  methods.push_back(
      method("Validation noise at the target", "binomial standard error sqrt(p (1 - p) / n)", "binomial sampling"));
  methods.push_back(method("Probability of improvement",
                           "P(TTA_A < TTA_B) over all run pairs, ties 1/2, runs that never reached "
                           "slower than any that did; interval: Newcombe's method 5 with Student's t at m + n - 2 "
                           "degrees of freedom (covers 95% in simulation at 2 to 20 runs per entry)",
                           "Agarwal et al. 2021 (rliable); Bouthillier et al. 2021; Newcombe 2006"));
  methods.push_back(method("Expected best-of-n TTA",
                           "E[min of n runs drawn with replacement] = sum_i v(i) [((N-i+1)/N)^n - "
                           "((N-i)/N)^n], given at least one of the n reaches",
                           "Dodge et al. 2019, 'Show your work'"));
  return methods;
}

}  // namespace evalsuite::reports
