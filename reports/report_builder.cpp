// BuildStabilityReport: plain run data in, the canonical report model out (shape documented in report_builder.h).
#include "reports/report_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

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
#include "reports/generalization_section.h"
#include "reports/hardware_section.h"
#include "reports/machine_noise.h"
#include "reports/mlperf_table.h"
#include "reports/report_sections.h"
#include "reports/run_curves.h"
#include "reports/sensitivity_grid.h"
#include "reports/stats_json.h"
#include "reports/variance_section.h"
#include "stats/curve.h"
#include "stats/entry_verdict.h"
#include "stats/stability.h"
#include "stats/variation_decomposition.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// A run's figures; its evaluations are in the side file (reports/run_curves.h), their count here.
RunModel RunFigures(const analysis::Run& run, bool counted, double threshold, std::size_t consecutive) {
  RunModel out;
  out.index = run.index;
  out.seeds = run.seeds;
  out.status = analysis::RunStatusName(run.status);
  out.counted = counted;
  out.tta = stats::TimeToTarget(run.points, threshold, consecutive);
  if (analysis::HasEpochs(run)) {
    out.epochs_to_target = stats::TimeToTarget(analysis::EpochCurveOf(run).points, threshold, consecutive);
  }
  out.time_spent = analysis::TimeCurveOf(run).time_spent;
  out.wall_seconds = run.wall_seconds;
  out.threads = run.threads;
  out.error = run.error;
  out.contention = run.contention;
  out.precision = run.precision;
  out.evaluations = run.points.size();
  return out;
}

// "precision: fp32 (5 runs): <the first run's reason>", or for mixed precisions each with its count; empty when no
// run recorded a choice (imports, external entries).
std::string PrecisionSentence(const std::vector<const analysis::Run*>& runs) {
  std::map<std::string, std::pair<int, std::string>> by_precision;
  for (const analysis::Run* run : runs) {
    if (!run->precision) continue;
    auto& slot = by_precision[run->precision->precision];
    if (slot.first++ == 0) slot.second = run->precision->reason;
  }
  std::string text;
  for (const auto& [precision, counted] : by_precision) {
    text += fmt::format("{}{} ({} run{}){}", text.empty() ? "precision: " : "; ", precision, counted.first,
                        counted.first == 1 ? "" : "s", counted.second.empty() ? "" : ": " + counted.second);
  }
  return text;
}

SensitivityModel Sensitivity(const analysis::Entry& entry, const std::vector<stats::RunCurve>& curves,
                             std::size_t consecutive, const ThresholdNoiseModel& noise) {
  SensitivityModel out;
  out.step = SensitivityStep(entry.threshold);
  out.steps_below = kSensitivityStepsBelow;
  out.steps_above = kSensitivityStepsAbove;
  out.extra_thresholds = entry.extra_thresholds;
  for (double threshold : SensitivityThresholds(entry.threshold, entry.extra_thresholds)) {
    SensitivityRowModel row;
    row.stats = StatsOnUserData(EntryField(entry.name),
                                [&] { return stats::AnalyzeStability(curves, threshold, 0.05, consecutive); });
    const std::vector<double>& within = noise.thresholds_within;
    row.within_noise_of_target = std::find(within.begin(), within.end(), threshold) != within.end();
    row.is_target = threshold == entry.threshold;
    out.thresholds.push_back(std::move(row));
  }
  return out;
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

// The card's note on the validation metric's own noise at the target (reports/report_sections.h ThresholdNoise): its
// binomial standard error, the grid thresholds within it, runs that fell back below the target; empty without a
// validation size.
std::string ThresholdNoiseLine(const ThresholdNoiseModel& noise, std::size_t consecutive) {
  if (!noise.standard_error) return "";
  std::string line = fmt::format(
      "note: the validation metric's binomial standard error at the target is {:.3g} (n = {}; sqrt(p (1 - p) / n))",
      *noise.standard_error, noise.validation_size.dump());
  if (noise.target_within_noise_of_grid) {
    line += fmt::format(
        ": {} of the sensitivity grid's thresholds lie within it of the target, so the target "
        "is not finer than the metric's own noise",
        noise.thresholds_within.size());
  }
  if (noise.runs_fell_back > 0) {
    line +=
        fmt::format("; {} run(s) crossed the target and later fell back below it{}", noise.runs_fell_back,
                    consecutive > 1 ? "" : " (consecutive_evaluations in [stability] asks for a crossing that holds)");
  }
  return line;
}

}  // namespace

ReportModel BuildStabilityReport(const StabilityReportInput& input,
                                 const std::function<void(const std::string& step)>& progress) {
  auto step = [&](const std::string& name) {
    if (progress) progress(name);
  };
  ReportModel model;
  model.schema_version = kReportSchemaVersion;
  model.title = input.title;
  model.generated_at = UtcNowIso8601();
  model.environment = input.environment.empty() ? DescribeEnvironment() : input.environment;
  model.plan = input.plan;
  model.rule = input.settings.rule;
  model.points_file = kRunPointsFile;  // every run's evaluations, beside report.json (reports/run_curves.h)

  const std::size_t consecutive = std::max<std::size_t>(input.settings.rule.consecutive_evaluations, 1);
  std::vector<ComparedEntry> compared;
  // A sequential stability study's verdicts are its decision's, at the look's level (analysis/sequential_decision.h).
  const std::optional<analysis::SequentialOutcome> sequential_stability =
      analysis::SequentialStabilityOutcome(input.entries, input.settings);
  for (const analysis::Entry& entry : input.entries) {
    step(fmt::format("entry {} of {}: {}", model.entries.size() + 1, input.entries.size(), entry.name));
    const analysis::EntryAnalysis analyzed =
        analysis::AnalyzeEntry(entry, input.settings.rule, sequential_stability ? &*sequential_stability : nullptr);
    const std::vector<stats::RunCurve>& curves = analyzed.counted.time;
    EntryModel out;
    const std::vector<bool> counted_flags = analysis::CountedFlags(entry);
    for (std::size_t i = 0; i < entry.runs.size(); ++i) {
      out.runs.push_back(RunFigures(entry.runs[i], counted_flags[i], entry.threshold, consecutive));
    }
    const stats::EntryStatistics& statistics = analyzed.statistics;
    const stats::StabilityStats& at_target = statistics.at_target;
    const stats::EntryVerdict& entry_verdict = analyzed.on_basis;
    const stats::StabilityStats& judged = analyzed.JudgedStatistics();
    stats::StabilityVerdict verdict = analyzed.verdict;
    ThresholdNoiseModel noise =
        ThresholdNoise(entry, SensitivityThresholds(entry.threshold, entry.extra_thresholds), curves);
    if (const std::string line = ThresholdNoiseLine(noise, consecutive); !line.empty() && !analyzed.none_ran) {
      verdict.reasons.push_back(line);
    }
    if (!curves.empty())
      compared.push_back({entry.name, entry.metric, entry.time_unit, entry.threshold, at_target.tta});

    // The machine's part (reports/machine_noise.h): what it did during the counted runs, where TTA's variation came
    // from, and the card's first line when the machine was busy or time per epoch varied beyond the bound.
    const std::vector<const analysis::Run*>& counted = analyzed.counted.runs;
    const std::optional<ContentionSummaryModel> contention = ContentionSummary(counted);
    const stats::VariationDecomposition& variation = statistics.variation;
    const std::string epochs_result = analyzed.none_ran ? "" : entry_verdict.result_on_epochs;
    const std::string first_line =
        analyzed.none_ran ? std::string() : MachineNoiseLine(contention, variation, epochs_result, entry_verdict.basis);
    if (const std::string sentence = VariationSentence(variation); !sentence.empty())
      verdict.reasons.push_back(sentence);
    if (entry_verdict.epochs_unavailable) verdict.reasons.push_back(stats::kEpochsUnavailableNote);
    if (const std::string precision = PrecisionSentence(counted); !precision.empty()) {
      verdict.reasons.push_back(precision);
    }

    VerdictModel card;
    card.entry = entry.name;
    card.verdict = std::move(verdict);
    card.basis = entry_verdict.basis;
    card.first_line = first_line;
    card.result_on_epochs = epochs_result;
    card.runs = judged.runs;
    card.reached = judged.reached;
    card.threshold = entry.threshold;
    card.cov = judged.cov;
    card.cov_interval = judged.cov_interval;
    model.verdicts.push_back(std::move(card));

    TableRowModel row;
    row.entry = entry.name;
    row.metric = entry.metric;
    row.threshold = entry.threshold;
    row.time_unit = entry.time_unit;
    row.progress_unit = ProgressUnit(entry);
    if (contention) row.busy_runs = contention->busy_runs;
    row.statistics = StatisticValues(statistics);
    model.table.push_back(std::move(row));

    out.name = entry.name;
    out.description = entry.description;
    out.source = entry.source;
    out.metric = entry.metric;
    out.threshold = entry.threshold;
    out.time_unit = entry.time_unit;
    out.progress_unit = ProgressUnit(entry);
    out.extra = entry.extra;
    out.mlperf = ParseMlperfFacts(entry.extra);  // reports/mlperf_table.h
    out.curves = EntryCurves(entry, entry.threshold, consecutive);
    out.stats = at_target;
    out.epochs_to_target = statistics.in_epochs;
    out.variation = variation;
    out.contention = contention;
    out.expected_best = ExpectedBest(at_target);
    out.sensitivity = Sensitivity(entry, curves, consecutive, noise);
    out.threshold_noise = std::move(noise);
    model.entries.push_back(std::move(out));
  }
  step(fmt::format("comparing {} entries pairwise", compared.size()));
  model.comparisons = EntryComparisons(compared);
  model.methods = Methods();
  model.compare = CompareSection(input);  // reports/comparison_section.h
  if (model.compare) {
    if (model.compare->sequential) {
      model.methods.push_back({"Sequential study: when to stop", SequentialMethod(model.compare->sequential->question),
                               "Lan and DeMets 1983; Jennison and Turnbull 2000, ch. 9 and 19"});
    }
    for (const auto& m : stats::ComparisonMethods()) model.methods.push_back({m.name, m.formula, m.source});
  }
  model.cost = CostSection(input, model.entries);
  model.variance_sources = VarianceSection(input);  // reports/variance_section.h
  if (!model.variance_sources.empty()) {
    model.methods.push_back(
        {"Sources of variance", "ln TTA = mu + sum over varied sources of u_source[seed] + e; REML components",
         "Patterson and Thompson 1971; Ting et al. 1990 (intervals); Bouthillier et al. 2021 (design)"});
  }

  if (!input.extra_sections.is_null() && !input.extra_sections.is_object()) {
    throw UsageError("extra_sections", "report sections must be a JSON object keyed by section name");
  }
  // The report's own keys (report_json.cpp writes them), which a section made elsewhere may not replace.
  std::set<std::string> own = {"schema_version", "title",    "generated_at", "environment", "plan",        "rule",
                               "points_file",    "verdicts", "table",        "entries",     "comparisons", "methods"};
  if (model.compare) own.insert("compare");
  if (model.cost) own.insert(kCostSectionKey);
  if (!model.variance_sources.empty()) own.insert(kVarianceSectionKey);
  for (const auto& [key, section] : input.extra_sections.items()) {
    if (own.count(key) > 0) {
      throw UsageError("extra_sections." + key, "a report section may not replace the report's own \"" + key +
                                                    "\" key; choose another section name");
    }
    model.sections[key] = section;
  }
  // The sections arrive decoded (reports/given_sections.h): a section given as JSON alone would be shown in
  // report.json and drawn nowhere, so it is refused.
  if (input.extra_sections.contains(kGeneralizationSectionKey) && input.generalization.empty()) {
    throw UsageError(std::string("extra_sections.") + kGeneralizationSectionKey,
                     "a generalization section must be given through AddGeneralizationSection (decoded once)");
  }
  if (!input.hardware_given.is_null() && !input.hardware_decoded) {
    throw UsageError(kHardwareSectionKey, "the given hardware rows must be settled by DecodeHardwareSection first");
  }
  model.generalization = input.generalization;
  // The holdout verdict's rule and its simulated error rates, once (every image set quotes the same).
  for (const ImageSetModel& image_set : model.generalization) {
    if (!image_set.verdict || image_set.verdict->error_rates.empty()) continue;
    model.methods.push_back(
        {"Holdout generalization verdict",
         "GENERALIZES when every TTA-optimized model's Newcombe 95% interval of the accuracy difference to the "
         "reference lies above -margin; DOES NOT GENERALIZE when one model's 100(1 - alpha/k)% interval lies "
         "below it; INCONCLUSIVE otherwise, with the holdout size that would decide. " +
             image_set.verdict->error_rates,
         "Newcombe 1998 (method 10); non-inferiority by confidence interval (Schuirmann 1987)"});
    break;
  }
  model.hardware = input.hardware;  // the study's ceilings applied (reports/hardware_ceilings.h)
  return model;
}

}  // namespace evalsuite::reports
