#include "reports/report_outline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/json_access.h"
#include "reports/comparison_section.h"
#include "reports/cost_section.h"
#include "reports/generalization_chart.h"
#include "reports/generalization_section.h"
#include "reports/generalization_tables.h"
#include "reports/gpu_use.h"
#include "reports/hardware_section.h"
#include "reports/mlperf_table.h"
#include "reports/model_tables.h"
#include "reports/stability_charts.h"
#include "reports/stats_json.h"
#include "reports/value_format.h"
#include "reports/variance_section.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

constexpr const char* kVerdictId = "verdict";
constexpr const char* kOverviewId = "table";
constexpr const char* kEntriesId = "entries";
constexpr const char* kGeneralizationId = "generalization";
constexpr const char* kHardwareId = "hardware";
constexpr const char* kVarianceId = "variance";
constexpr const char* kMethodsId = "methods";
constexpr const char* kEnvironmentId = "environment";

void OutlineVerdicts(const ReportModel& model, ReportMarkup& markup) {
  const std::string statement = RuleStatement(model.rule);
  if (!statement.empty()) markup.RuleStatement(statement);
  if (model.verdicts.empty()) markup.Placeholder("No entries.");
  std::vector<VerdictCard> cards;
  for (const VerdictModel& verdict : model.verdicts) {
    VerdictCard card;
    card.entry = verdict.entry;
    card.result = verdict.verdict.result;
    card.first_line = verdict.first_line;
    card.reached = FormatCount(verdict.reached);
    card.runs = FormatCount(verdict.runs);
    card.threshold = FormatThreshold(verdict.threshold);
    card.judged_on_epochs = verdict.basis == "epochs";
    card.cov = FormatPercentInterval(verdict.cov, verdict.cov_interval);
    card.reasons = verdict.verdict.reasons;
    cards.push_back(std::move(card));
  }
  markup.VerdictCards(cards);
}

void OutlineOverview(const ReportModel& model, ReportMarkup& markup) {
  markup.Table(StabilityTable(model.table));
  markup.Note(kEpochsColumnNote);
  if (!model.comparisons.empty()) {
    markup.Part("Comparisons between entries (probability of improvement)");
    markup.Note(kComparisonsNote);
    markup.Table(ComparisonsTable(model.comparisons));
  }
  if (model.compare) {  // reports/comparison_section.h
    markup.Part("Is A faster than B?");
    markup.Note(kCompareNote);
    for (const std::string& line : SequentialLines(*model.compare)) markup.Paragraph(line);
    markup.Table(CompareTable(*model.compare));
  }
  if (model.cost) {
    const CostModel& cost = *model.cost;
    markup.Part("What the runs cost");
    markup.Note(kCostNote);
    markup.Table(CostTable(cost));
    if (ReportTable gpu = GpuTable(cost); !gpu.rows.empty()) {
      markup.Note(kGpuNote);
      markup.Table(gpu);
    } else if (std::string line = GpuNotSampledLine(cost); !line.empty()) {
      markup.Note(line);
    }
  }
  for (const auto& [unit, entries] : GroupByTimeUnit(model.entries)) {
    const auto& group = entries;
    const std::string& time_unit = unit;
    markup.Figure([&] { return TtaPerRunChart(group, time_unit); },
                  "Time to accuracy of every run. Dots: runs that reached the target; bar: their median (the "
                  "Kaplan-Meier chart counts the others); crosses in the shaded column: runs that did not reach it "
                  "(never given a time).");
    markup.Figure([&] { return KaplanMeierChart(group, time_unit); },
                  "Kaplan-Meier estimate of the share of runs not yet at the target by training time, with the "
                  "log-log 95% band; runs that stopped below the target are censored. Hollow dot: median.");
  }
}

void OutlineEntry(const EntryModel& entry, std::size_t index, ReportMarkup& markup) {
  markup.BeginEntry(index, entry.name);
  if (!entry.description.empty()) markup.Paragraph(entry.description);
  EntryFacts facts;
  facts.source = entry.source;
  facts.metric = entry.metric;
  facts.threshold = FormatThreshold(entry.threshold);
  facts.unit = TimeUnitSymbol(entry.time_unit);
  if (Finite(entry.stats.time_to_target.median)) {
    facts.kaplan_meier_median = KaplanMeierMedianText(entry.stats.time_to_target, entry.stats.runs);
  }
  markup.Facts(facts);
  markup.Figure([&] { return AccuracyVsTimeChart(entry); },
                "Metric against training time for every run, with the target line; dots mark each run's time to "
                "accuracy, dashed curves never reached the target.");
  if (entry.mlperf) {
    markup.Heading(4, "MLPerf official score");
    markup.Table(MlperfScoreTable(*entry.mlperf));
    const ReportTable dropped = MlperfDroppedRunsTable(*entry.mlperf);
    if (!dropped.rows.empty()) {
      markup.Paragraph("Runs that do not count:");
      markup.Table(dropped);
    }
  }
  markup.Heading(4, "Runs");
  markup.Table(RunsTable(entry));
  if (const std::string note = RunsNotListedNote(entry); !note.empty()) markup.Note(note);
  markup.Heading(4, "Threshold sensitivity");
  markup.Figure([&] { return ThresholdSensitivityChart(entry); },
                "Left: median TTA of the runs that reached each threshold, with their range, and the Kaplan-Meier "
                "median over all runs (hollow), which does not forget the runs that missed. Right: share of runs "
                "reaching each threshold, with its Clopper-Pearson 95% interval. Dashed line: the target.");
  markup.Table(SensitivityTable(entry));
  if (!entry.expected_best.empty()) {
    markup.Heading(4, "Expected best of n runs");
    markup.Note(kExpectedBestNote);
    markup.Table(ExpectedBestTable(entry));
  }
  markup.EndEntry();
}

void OutlineEntries(const ReportModel& model, ReportMarkup& markup) {
  for (std::size_t i = 0; i < model.entries.size(); ++i) OutlineEntry(model.entries[i], i, markup);
}

void OutlineGeneralization(const ReportModel& model, ReportMarkup& markup) {
  const std::vector<ImageSetModel>& sets = model.generalization;
  for (const ImageSetModel& image_set : sets) {
    markup.UserHeading(3, ImageSetSummary(image_set));
    if (const std::string text = GeneralizationVerdictText(image_set); !text.empty()) {
      const HoldoutVerdictModel& verdict = *image_set.verdict;
      markup.VerdictLine(text, verdict.passed ? *verdict.passed : verdict.generalizes == true);
    }
    markup.Table(GeneralizationModelsTable(image_set));
    if (!image_set.models.empty()) {
      markup.Figure([&] { return GeneralizationAccuracyChart(image_set); },
                    "Accuracy of each model on the unseen images with Clopper-Pearson 95% intervals, grouped by "
                    "group. Filled: top-1; hollow: top-5.");
    }
    if (!image_set.groups.empty()) {
      markup.Heading(4, "Groups");
      markup.Table(GeneralizationGroupsTable(image_set));
    }
    if (const ReportTable bins = GeneralizationFrequencyBinsTable(image_set); !bins.rows.empty()) {
      markup.Heading(4, "Accuracy by selection-frequency bin (share of labelers who judged the image correct)");
      markup.Table(bins);
    }
    if (!image_set.pairs.empty()) {
      markup.Heading(4, "Pairwise comparisons (exact McNemar; Holm-adjusted over each metric's pairs, exploratory)");
      markup.Table(GeneralizationPairsTable(image_set));
    }
    if (!image_set.failures.empty()) {
      markup.Heading(4, "Unreadable images");
      markup.Table(GeneralizationFailuresTable(image_set));
    }
  }
  // The sets side by side per bin, when more than one has frequencies (e.g. the three ImageNetV2 variants).
  const auto with_bins =
      std::count_if(sets.begin(), sets.end(), [](const ImageSetModel& set) { return !set.frequency_bins.empty(); });
  if (with_bins > 1) {
    markup.Heading(3, "Image sets side by side, by selection-frequency bin");
    markup.Table(FrequencyBinsAcrossSetsTable(sets));
  }
}

void OutlineHardware(const ReportModel& model, ReportMarkup& markup) {
  const HardwareSectionModel& section = *model.hardware;
  // A section of external entries alone has no machine table, time or memory breakdown.
  if (const ReportTable machine = HardwareMachineTable(section); !machine.rows.empty()) markup.Table(machine);
  markup.Bullets(HardwareBottleneckSentences(section));
  markup.Figure([&] { return RooflineChart(section); },
                "Roofline (Williams et al.): each entry's achieved FLOP/s at its operational intensity, progressive "
                "resizing's stages as separate points, under the measured memory slope and compute roofs.");
  if (section.entries.empty()) {
    markup.Paragraph(kNoHardwareEntries);
    return;
  }
  markup.Heading(3, "Per entry (progressive-resize stages as separate rows)");
  markup.Table(HardwareEntriesTable(section));
  if (const ReportTable time = HardwareTimeTable(section); !time.rows.empty()) {
    markup.Heading(3, "Time breakdown (share of the profiled run's wall time)");
    markup.Table(time);
  }
  if (const ReportTable memory = HardwareMemoryTable(section); !memory.rows.empty()) {
    markup.Heading(3, "Memory breakdown (counted from the tensors the trainer holds)");
    markup.Table(memory);
  }
  if (!markup.ShowsFigures()) markup.Note("The roofline chart is in report.html.");
}

void OutlineVariance(const ReportModel& model, ReportMarkup& markup) {
  markup.Note(kVarianceNote);
  markup.Figure([&] { return VarianceSharesChart(model.variance_sources); },
                "Share of ln TTA's variance from each source, per entry; under each bar, where a segment's end lies "
                "at the ends of its share's 95% interval.");
  for (const EntryVarianceModel& entry : model.variance_sources) {
    markup.UserHeading(3, entry.entry);
    markup.Bullets(VarianceSentences(entry.sources));
    markup.Table(VarianceComponentsTable(entry.sources));
  }
  if (!markup.ShowsFigures()) markup.Note("The chart of the shares is in report.html.");
}

void OutlineMethods(const ReportModel& model, ReportMarkup& markup) { markup.Table(MethodsTable(model.methods)); }

void OutlineEnvironment(const ReportModel& model, ReportMarkup& markup) {
  markup.Table(EnvironmentTable(model.environment));
  const json& plan = model.plan;
  if (!plan.is_null() && !plan.empty()) markup.CodeBlock("Effective plan", plan.dump(2));
}

// A section of the outline: its heading and anchor, whether the model has it, and what it holds.
struct OutlineStep {
  OutlineSection section;
  bool (*present)(const ReportModel& model);
  void (*body)(const ReportModel& model, ReportMarkup& markup);
};

const std::vector<OutlineStep>& Outline() {
  static const std::vector<OutlineStep> steps = {
      {{kVerdictId, "Verdict", "Verdict"}, [](const ReportModel&) { return true; }, OutlineVerdicts},
      {{kOverviewId, "Time to accuracy (DAWNBench Tables 2-3)", "Tables 2-3"},
       [](const ReportModel&) { return true; },
       OutlineOverview},
      {{kEntriesId, "Entries", "Entries"},
       [](const ReportModel& model) { return !model.entries.empty(); },
       OutlineEntries},
      {{kVarianceId, "Sources of variance", "Variance"},
       [](const ReportModel& model) { return !model.variance_sources.empty(); },
       OutlineVariance},
      {{kGeneralizationId, "Generalization to unseen data (Table 4)", "Generalization"},
       [](const ReportModel& model) { return !model.generalization.empty(); },
       OutlineGeneralization},
      {{kHardwareId, "Hardware: why TTA is what it is", "Hardware"},
       [](const ReportModel& model) { return model.hardware.has_value(); },
       OutlineHardware},
      {{kMethodsId, "Methods", ""}, [](const ReportModel& model) { return !model.methods.empty(); }, OutlineMethods},
      {{kEnvironmentId, "Environment", "Environment"}, [](const ReportModel&) { return true; }, OutlineEnvironment},
  };
  return steps;
}

}  // namespace

std::vector<OutlineSection> ReportSections(const ReportModel& model) {
  std::vector<OutlineSection> sections;
  for (const OutlineStep& step : Outline()) {
    if (step.present(model)) sections.push_back(step.section);
  }
  return sections;
}

void RenderReport(const ReportModel& model, ReportMarkup& markup) {
  ReportOpening opening;
  opening.title = model.title;
  opening.generated_at = model.generated_at;
  opening.schema_version = std::to_string(model.schema_version);
  // The environment is user data as recorded: its host, when it names one as text.
  if (const json& host = Field(model.environment, "host"); !host.is_null()) {
    opening.host = host.is_string() ? host.get<std::string>() : host.dump();
  }
  opening.sections = ReportSections(model);
  markup.Open(opening);
  for (const OutlineStep& step : Outline()) {
    if (!step.present(model)) continue;
    markup.BeginSection(step.section);
    step.body(model, markup);
    markup.EndSection();
  }
  markup.Close();
}

}  // namespace evalsuite::reports
