#include "reports/report_sections.h"

#include <cmath>

#include "evalsuite/common/stats_boundary.h"
#include "reports/json_number.h"
#include "reports/stats_json.h"
#include "stats/improvement.h"

namespace evalsuite::reports {
using nlohmann::json;

json ThresholdNoiseJson(const EntryInput& entry, const std::vector<double>& thresholds,
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
  json noise = {{"validation_size", nullptr},
                {"standard_error", nullptr},
                {"formula", "sqrt(p (1 - p) / n) at p = the target, n = the validation split's size (binomial)"},
                {"thresholds_within", json::array()},
                {"target_within_noise_of_grid", false},
                {"runs_fell_back", fell_back}};
  const json& size = entry.extra.is_object() && entry.extra.contains("validation_size") ? entry.extra["validation_size"]
                                                                                        : json(nullptr);
  if (!size.is_number() || size.get<double>() < 1) return noise;
  const double n = size.get<double>();
  const bool percent = entry.threshold > 1;
  const double p = percent ? entry.threshold / 100 : entry.threshold;
  if (!(p >= 0 && p <= 1)) return noise;
  const double se = std::sqrt(p * (1 - p) / n) * (percent ? 100 : 1);
  noise["validation_size"] = size;
  noise["standard_error"] = JsonNumber(se);
  for (double t : thresholds) {
    if (t != entry.threshold && std::abs(t - entry.threshold) < se) noise["thresholds_within"].push_back(JsonNumber(t));
  }
  noise["target_within_noise_of_grid"] = !noise["thresholds_within"].empty();
  return noise;
}

json ExpectedBestJson(const stats::StabilityStats& stats) {
  json rows = json::array();
  for (const stats::ExpectedBest& best : stats::ExpectedBestOfN(stats.tta, stats.runs)) {
    // A few n tell the story: 1 (one honest run), small n, and every run.
    if (best.n > 3 && best.n != 5 && best.n != 10 && best.n != stats.runs) continue;
    rows.push_back({{"n", best.n}, {"expected_tta", JsonNumber(best.expected_tta)}, {"none_reach", best.none_reach}});
  }
  return rows;
}

json EntryComparisonsJson(const std::vector<ComparedEntry>& entries) {
  json rows = json::array();
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
      rows.push_back({{"a", a.name},
                      {"b", b.name},
                      {"runs_a", a.tta.size()},
                      {"runs_b", b.tta.size()},
                      {"probability_a_faster", JsonNumber(poi.probability)},
                      {"interval", IntervalJson(poi.interval)},
                      {"resamples", poi.resamples},
                      {"seed", poi.seed}});
    }
  }
  return rows;
}

json MethodsJson() {
  auto method = [](const char* name, const char* formula, const char* source) {
    return json{{"name", name}, {"formula", formula}, {"source", source}};
  };
  return json::array(
      {method("Time to accuracy (TTA)",
              "training time at the first evaluation at or above the target (or the first of k consecutive ones)",
              "Coleman et al. 2017, DAWNBench"),
       method("CoV and its 95% interval", "s / mean of the TTAs of runs that reached; modified McKay interval",
              "Vangel 1996, Am. Statistician 50(1)"),
       method("Runs that would tell",
              "fewest n with P(Vangel upper bound <= limit) >= assurance, the sample CoV "
              "distributed by McKay's chi-square approximation",
              "McKay 1932; Vangel 1996"),
       method("Hit rate and its 95% interval", "reached / runs; exact binomial (beta quantiles)",
              "Clopper and Pearson 1934, Biometrika 26(4)"),
       method("Kaplan-Meier time to target",
              "product-limit survival of 'not yet at the target', runs that missed "
              "censored at their time spent; log-log band; median = first time survival <= 0.5 (R print.survfit)",
              "Kaplan and Meier 1958; R survival package"),
       method("Median TTA",
              "all runs reached: sample median; some did not: the Kaplan-Meier median ('not reached' "
              "when fewer than half reach); the median of the runs that reached is labelled as such",
              "this report"),
       method("Olympic mean",
              "drop the fastest and slowest run, average the rest; a run that did not reach counts "
              "as a slowest one",
              "MLPerf Training rules, result summarizer _compute_olympic_average"),
       method("ERT", "time spent by all runs (a reached run until its TTA) / runs that reached",
              "Hansen et al., COCO (expected running time)"),
       method("Validation noise at the target", "binomial standard error sqrt(p (1 - p) / n)", "binomial sampling"),
       method("Probability of improvement",
              "P(TTA_A < TTA_B) over all run pairs, ties 1/2, runs that never reached "
              "slower than any that did; percentile bootstrap (2,000 resamples, fixed seed)",
              "Agarwal et al. 2021 (rliable); Bouthillier et al. 2021"),
       method("Expected best-of-n TTA",
              "E[min of n runs drawn with replacement] = sum_i v(i) [((N-i+1)/N)^n - "
              "((N-i)/N)^n], given at least one of the n reaches",
              "Dodge et al. 2019, 'Show your work'")});
}

}  // namespace evalsuite::reports
