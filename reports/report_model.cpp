// BuildStabilityReport: plain run data in, the canonical report model out (shape documented in report.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "analysis/entry_analysis.h"
#include "analysis/run_counting.h"
#include "analysis/sequential_decision.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/json_access.h"
#include "common/json_number.h"
#include "common/stats_boundary.h"
#include "reports/comparison_section.h"
#include "reports/cost_section.h"
#include "reports/hardware_ceilings.h"
#include "reports/hardware_section.h"
#include "reports/machine_noise.h"
#include "reports/report.h"
#include "reports/report_sections.h"
#include "reports/run_curves.h"
#include "reports/sensitivity_grid.h"
#include "reports/stats_json.h"
#include "stats/curve.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"
#include "stats/variation_decomposition.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// A run's figures; its evaluations are in the side file (reports/run_curves.h), their count here.
json RunJson(const analysis::Run& run, bool counted, double threshold, std::size_t consecutive) {
  return {{"index", run.index},
          {"seeds", run.seeds},
          {"status", analysis::RunStatusName(run.status)},
          {"counted", counted},
          {"tta", JsonNumber(stats::TimeToTarget(run.points, threshold, consecutive))},
          {"epochs_to_target",
           analysis::HasEpochs(run)
               ? JsonNumber(stats::TimeToTarget(analysis::EpochCurveOf(run).points, threshold, consecutive))
               : json(nullptr)},
          {"time_spent", JsonNumber(analysis::TimeCurveOf(run).time_spent)},
          {"wall_seconds", JsonNumber(run.wall_seconds)},
          {"threads", run.threads},
          {"error", run.error.empty() ? json(nullptr) : json(run.error)},
          {"contention", run.contention},
          {"precision", run.precision},
          {"evaluations", run.points.size()}};
}

// "precision: fp32 (5 runs): <the first run's reason>", or for mixed precisions each with its count; empty when no
// run recorded a choice (imports, external entries).
std::string PrecisionSentence(const std::vector<const analysis::Run*>& runs) {
  std::map<std::string, std::pair<int, std::string>> by_precision;
  for (const analysis::Run* run : runs) {
    if (!run->precision.is_object()) continue;
    auto& slot = by_precision[run->precision.value("precision", std::string("?"))];
    if (slot.first++ == 0) slot.second = run->precision.value("reason", std::string());
  }
  std::string text;
  for (const auto& [precision, counted] : by_precision) {
    text += fmt::format("{}{} ({} run{}): {}", text.empty() ? "precision: " : "; ", precision, counted.first,
                        counted.first == 1 ? "" : "s", counted.second);
  }
  return text;
}

json SensitivityJson(const analysis::Entry& entry, const std::vector<stats::RunCurve>& curves, std::size_t consecutive,
                     const json& noise) {
  json rows = json::array();
  for (double threshold : SensitivityThresholds(entry.threshold, entry.extra_thresholds)) {
    json row = StabilityStatsJson(StatsOnUserData(
        EntryField(entry.name), [&] { return stats::AnalyzeStability(curves, threshold, 0.05, consecutive); }));
    const json& within = noise["thresholds_within"];
    row["within_noise_of_target"] = std::find(within.begin(), within.end(), JsonNumber(threshold)) != within.end();
    row["is_target"] = threshold == entry.threshold;
    rows.push_back(std::move(row));
  }
  return {{"grid",
           {{"step", SensitivityStep(entry.threshold)},
            {"steps_below", kSensitivityStepsBelow},
            {"steps_above", kSensitivityStepsAbove},
            {"extra_thresholds", entry.extra_thresholds},
            {"rule",
             "target + k * step for k in -4..+2 (step 0.0025 for [0, 1] metrics, 0.25 for percent "
             "metrics), inside the metric's scale, plus the entry's extra thresholds"}}},
          {"thresholds", std::move(rows)}};
}

// What a run's "epoch" counts, as the importer named it from the source's rules (extra.progress_unit: epochs,
// samples, steps, tokens, evaluations); stores written before it said so: extra.target.convergence_unit; else epochs.
std::string ProgressUnit(const analysis::Entry& entry) {
  if (const json& named = Field(entry.extra, "progress_unit"); named.is_string() && !named.get<std::string>().empty()) {
    return named.get<std::string>();
  }
  const json& unit = Field(Field(entry.extra, "target"), "convergence_unit");
  return unit.is_string() && unit.get<std::string>().rfind("samples", 0) == 0 ? "samples" : "epochs";
}

// The Tables 2-3 row: the entry, then every statistic of stats/stability_statistics.h.
json TableRow(const analysis::Entry& entry, const stats::EntryStatistics& statistics) {
  json row = StatisticsRowJson(statistics);
  row["entry"] = entry.name;
  row["metric"] = entry.metric;
  row["threshold"] = JsonNumber(entry.threshold);
  row["time_unit"] = entry.time_unit;
  return row;
}

// The card's note on the validation metric's own noise at the target (reports/report_sections.h ThresholdNoiseJson):
// its binomial standard error, the grid thresholds within it, runs that fell back below the target; empty without a
// validation size.
std::string ThresholdNoiseLine(const json& noise, std::size_t consecutive) {
  const auto se = NumberOf(noise["standard_error"]);
  if (!se) return "";
  std::string line = fmt::format(
      "note: the validation metric's binomial standard error at the target is {:.3g} (n = {}; sqrt(p (1 - p) / n))",
      *se, noise["validation_size"].dump());
  if (noise["target_within_noise_of_grid"] == json(true)) {
    line += fmt::format(
        ": {} of the sensitivity grid's thresholds lie within it of the target, so the target "
        "is not finer than the metric's own noise",
        noise["thresholds_within"].size());
  }
  const std::size_t fell_back = noise["runs_fell_back"].get<std::size_t>();
  if (fell_back > 0) {
    line +=
        fmt::format("; {} run(s) crossed the target and later fell back below it{}", fell_back,
                    consecutive > 1 ? "" : " (consecutive_evaluations in [stability] asks for a crossing that holds)");
  }
  return line;
}

}  // namespace

json BuildStabilityReport(const StabilityReportInput& input,
                          const std::function<void(const std::string& step)>& progress) {
  auto step = [&](const std::string& name) {
    if (progress) progress(name);
  };
  json model = json::object();
  model["schema_version"] = kReportSchemaVersion;
  model["title"] = input.title;
  model["generated_at"] = UtcNowIso8601();
  model["environment"] = input.environment.empty() ? DescribeEnvironment() : input.environment;
  model["plan"] = input.plan;
  model["rule"] = RuleJson(input.settings.rule);
  model["points_file"] = kRunPointsFile;  // every run's evaluations, beside report.json (reports/run_curves.h)

  const std::size_t consecutive = std::max<std::size_t>(input.settings.rule.consecutive_evaluations, 1);
  json verdicts = json::array(), table = json::array(), entries = json::array();
  std::vector<ComparedEntry> compared;
  // A sequential stability study's verdicts are its decision's, at the look's level (analysis/sequential_decision.h).
  const std::optional<analysis::SequentialOutcome> sequential_stability =
      analysis::SequentialStabilityOutcome(input.entries, input.settings);
  for (const analysis::Entry& entry : input.entries) {
    step(fmt::format("entry {} of {}: {}", entries.size() + 1, input.entries.size(), entry.name));
    const analysis::EntryAnalysis analyzed =
        analysis::AnalyzeEntry(entry, input.settings.rule, sequential_stability ? &*sequential_stability : nullptr);
    const std::vector<stats::RunCurve>& curves = analyzed.counted.time;
    json runs = json::array();
    const std::vector<bool> counted_flags = analysis::CountedFlags(entry);
    for (std::size_t i = 0; i < entry.runs.size(); ++i) {
      runs.push_back(RunJson(entry.runs[i], counted_flags[i], entry.threshold, consecutive));
    }
    const stats::EntryStatistics& statistics = analyzed.statistics;
    const stats::StabilityStats& at_target = statistics.at_target;
    const std::optional<stats::StabilityStats>& in_epochs = statistics.in_epochs;
    const stats::EntryVerdict& entry_verdict = analyzed.on_basis;
    const stats::StabilityStats& judged = analyzed.JudgedStatistics();
    stats::StabilityVerdict verdict = analyzed.verdict;
    const json noise =
        ThresholdNoiseJson(entry, SensitivityThresholds(entry.threshold, entry.extra_thresholds), curves);
    if (const std::string line = ThresholdNoiseLine(noise, consecutive); !line.empty() && !analyzed.none_ran) {
      verdict.reasons.push_back(line);
    }
    if (!curves.empty()) compared.push_back({entry.name, entry.metric, entry.time_unit, entry.threshold, at_target.tta});

    // The machine's part (reports/machine_noise.h): what it did during the counted runs, where TTA's variation came
    // from, and the card's first line when the machine was busy or time per epoch varied beyond the bound.
    const std::vector<const analysis::Run*>& counted = analyzed.counted.runs;
    const json contention = ContentionSummaryJson(counted);
    const stats::VariationDecomposition& variation = statistics.variation;
    const std::string epochs_result = analyzed.none_ran ? "" : entry_verdict.result_on_epochs;
    const std::string first_line =
        analyzed.none_ran ? std::string() : MachineNoiseLine(contention, variation, epochs_result, entry_verdict.basis);
    if (const std::string sentence = VariationSentence(variation); !sentence.empty()) verdict.reasons.push_back(sentence);
    if (entry_verdict.epochs_unavailable) verdict.reasons.push_back(stats::kEpochsUnavailableNote);
    if (const std::string precision = PrecisionSentence(counted); !precision.empty()) {
      verdict.reasons.push_back(precision);
    }

    json verdict_json = VerdictJson(verdict);
    verdict_json["entry"] = entry.name;
    verdict_json["result"] = verdict.result;
    verdict_json["basis"] = entry_verdict.basis;
    verdict_json["first_line"] = first_line.empty() ? json(nullptr) : json(first_line);
    verdict_json["result_on_epochs"] = epochs_result.empty() ? json(nullptr) : json(epochs_result);
    verdict_json["runs"] = judged.runs;
    verdict_json["reached"] = judged.reached;
    verdict_json["threshold"] = JsonNumber(entry.threshold);
    verdict_json["cov"] = JsonNumber(judged.cov);
    verdict_json["cov_interval"] = judged.cov_interval ? IntervalJson(*judged.cov_interval) : json(nullptr);
    verdicts.push_back(std::move(verdict_json));

    json row = TableRow(entry, statistics);
    row["progress_unit"] = ProgressUnit(entry);
    row["busy_runs"] = contention.is_object() ? contention["busy_runs"] : json(nullptr);
    table.push_back(std::move(row));

    entries.push_back({{"name", entry.name},
                       {"description", entry.description},
                       {"source", entry.source},
                       {"metric", entry.metric},
                       {"threshold", JsonNumber(entry.threshold)},
                       {"time_unit", entry.time_unit},
                       {"progress_unit", ProgressUnit(entry)},
                       {"extra", entry.extra},
                       {"runs", std::move(runs)},
                       {"curves", EntryCurvesJson(entry, entry.threshold, consecutive)},
                       {"stats", StabilityStatsJson(at_target)},
                       {"epochs_to_target", in_epochs ? StabilityStatsJson(*in_epochs) : json(nullptr)},
                       {"threshold_noise", noise},
                       {"variation", VariationJson(variation)},
                       {"contention", contention},
                       {"expected_best", ExpectedBestJson(at_target)},
                       {"sensitivity", SensitivityJson(entry, curves, consecutive, noise)}});
  }
  model["verdicts"] = std::move(verdicts);
  model["table"] = std::move(table);
  model["entries"] = std::move(entries);
  step(fmt::format("comparing {} entries pairwise", compared.size()));
  model["comparisons"] = EntryComparisonsJson(compared);
  model["methods"] = MethodsJson();
  if (json compare = CompareSectionJson(input); !compare.is_null()) {  // reports/comparison_section.h
    if (const json& sequential = Field(compare, "sequential"); sequential.is_object()) {
      model["methods"].push_back({{"name", "Sequential study: when to stop"},
                                  {"formula", Field(sequential, "method")},
                                  {"source", "Lan and DeMets 1983; Jennison and Turnbull 2000, ch. 9 and 19"}});
    }
    model["compare"] = std::move(compare);
    for (const auto& m : stats::ComparisonMethods()) {
      model["methods"].push_back({{"name", m.name}, {"formula", m.formula}, {"source", m.source}});
    }
  }
  if (json cost = CostSectionJson(input, model["entries"]); !cost.is_null()) model[kCostSectionKey] = std::move(cost);

  if (!input.extra_sections.is_null() && !input.extra_sections.is_object()) {
    throw UsageError("extra_sections", "report sections must be a JSON object keyed by section name");
  }
  for (const auto& [key, section] : input.extra_sections.items()) {
    if (model.contains(key)) {
      throw UsageError("extra_sections." + key, "a report section may not replace the report's own \"" + key +
                                                    "\" key; choose another section name");
    }
    model[key] = section;
  }
  // The study's own recorded ceilings are what MFU divides by (reports/hardware_ceilings.h).
  json hardware = ApplyStudyCeilings(Field(model, kHardwareSectionKey), input.environment);
  if (!hardware.is_null()) model[kHardwareSectionKey] = std::move(hardware);
  return model;
}

}  // namespace evalsuite::reports
