// RenderHtml: the report model as ONE self-contained HTML5 file: inline CSS (html_style.h) and inline SVG charts
// (stability_charts.h, generalization_chart.h); no scripts, fonts, images or links to anything outside it.
// Verdict first, then the same tables as the Markdown (report_table.h), then charts per entry. All user text
// is escaped.
#include <fmt/format.h>

#include "reports/cost_section.h"
#include "reports/gpu_use.h"
#include "reports/generalization_chart.h"
#include "reports/generalization_section.h"
#include "reports/generalization_tables.h"
#include "reports/hardware_section.h"
#include "reports/html_escape.h"
#include "reports/html_style.h"
#include "reports/json_access.h"
#include "reports/mlperf_table.h"
#include "reports/report.h"
#include "reports/comparison_section.h"
#include "reports/report_table.h"
#include "reports/stability_charts.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// Columns whose text runs long (errors, seeds, paths) wrap instead of widening the table.
bool IsWrappingColumn(const std::string& header) {
  return header == "Error" || header == "Seeds" || header == "Reason" || header == "Image" || header == "Value" ||
         header == "Entry" || header == "Model" || header == "Model A" || header == "Model B";
}

void AppendTable(const ReportTable& table, std::string& out) {
  if (table.rows.empty()) {
    out += "<p class=\"muted\">(none)</p>\n";
    return;
  }
  auto column_class = [&](std::size_t i) -> std::string {
    if (i < table.numeric.size() && table.numeric[i]) return " class=\"num\"";
    if (i < table.header.size() && IsWrappingColumn(table.header[i])) return " class=\"wrap\"";
    return "";
  };
  out += "<div class=\"table-wrap\"><table><thead><tr>";
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    out += "<th" + column_class(i) + ">" + EscapeHtml(table.header[i]) + "</th>";
  }
  out += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    bool emphasized = r < table.emphasized.size() && table.emphasized[r];
    out += emphasized ? "<tr class=\"target\">" : "<tr>";
    for (std::size_t i = 0; i < table.rows[r].size(); ++i) {
      out += "<td" + column_class(i) + ">" + EscapeHtml(table.rows[r][i]) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
}

void AppendFigure(const std::string& svg, const std::string& caption, std::string& out) {
  out += "<figure>" + svg + "<figcaption>" + EscapeHtml(caption) + "</figcaption></figure>\n";
}

void AppendVerdicts(const json& model, std::string& out) {
  out += "<section id=\"verdict\"><h2>Verdict</h2>\n";
  std::string statement = StringOf(Field(Field(model, "rule"), "statement"));
  if (!statement.empty()) out += "<p class=\"rule\">" + EscapeHtml(statement) + "</p>\n";
  const json& verdicts = ArrayOf(Field(model, "verdicts"));
  if (verdicts.empty()) out += "<p class=\"muted\">No entries.</p>\n";
  out += "<div class=\"verdicts\">\n";
  for (const json& verdict : verdicts) {
    const std::string result = StringOf(Field(verdict, "result"), "NOT STABLE");
    const char* css = result == "STABLE"                                      ? "stable"
                      : result == "INCONCLUSIVE" || result == "DID NOT RUN" ? "inconclusive"
                                                                            : "unstable";
    const json& interval = Field(verdict, "cov_interval");
    // When the machine, not the training, may explain the result, the card says so first (reports/machine_noise.h).
    const std::string first = StringOf(Field(verdict, "first_line"));
    const bool on_epochs = StringOf(Field(verdict, "basis")) == "epochs";
    out += fmt::format(
        "<article class=\"verdict {}\"><span class=\"badge\">Result: {}</span><h3>{}</h3>{}<p>{}/{} runs reached "
        "the target {}; CoV of {} {}</p><ul>",
        css, EscapeHtml(result), EscapeHtml(StringOf(Field(verdict, "entry"))),
        first.empty() ? std::string() : "<p class=\"machine-note\"><strong>" + EscapeHtml(first) + "</strong></p>",
        EscapeHtml(StringOf(Field(verdict, "reached"))), EscapeHtml(StringOf(Field(verdict, "runs"))),
        EscapeHtml(FormatThreshold(Field(verdict, "threshold"))),
        on_epochs ? "epochs to target (the rule's basis)" : "TTA",
        EscapeHtml(FormatPercentInterval(Field(verdict, "cov"), Field(interval, "lower"), Field(interval, "upper"))));
    for (const json& reason : ArrayOf(Field(verdict, "reasons")))
      out += "<li>" + EscapeHtml(StringOf(reason)) + "</li>";
    out += "</ul></article>\n";
  }
  out += "</div></section>\n";
}

void AppendOverview(const json& model, std::string& out) {
  out += "<section id=\"table\"><h2>Time to accuracy (DAWNBench Tables 2-3)</h2>\n";
  AppendTable(StabilityTable(model), out);
  out += std::string("<p class=\"muted\">") + kEpochsColumnNote + "</p>\n";  // plain text: no escaping needed
  if (!ArrayOf(Field(model, "comparisons")).empty()) {
    out += "<h3>Comparisons between entries (probability of improvement)</h3>\n<p class=\"muted\">" +
           EscapeHtml(kComparisonsNote) + "</p>\n";
    AppendTable(ComparisonsTable(model), out);
  }
  if (Field(model, "compare").is_object()) {  // reports/comparison_section.h
    out += "<h3>Is A faster than B?</h3>\n<p class=\"muted\">" + EscapeHtml(kCompareNote) + "</p>\n";
    for (const std::string& line : SequentialLines(model)) out += "<p>" + EscapeHtml(line) + "</p>\n";
    AppendTable(CompareTable(model), out);
  }
  if (const json& cost = Field(model, kCostSectionKey); cost.is_object()) {
    out += "<h3>What the runs cost</h3>\n<p class=\"muted\">" + EscapeHtml(kCostNote) + "</p>\n";
    AppendTable(CostTable(cost), out);
    if (ReportTable gpu = GpuTable(cost); !gpu.rows.empty()) {
      out += "<p class=\"muted\">" + EscapeHtml(kGpuNote) + "</p>\n";
      AppendTable(gpu, out);
    } else if (std::string line = GpuNotSampledLine(cost); !line.empty()) {
      out += "<p class=\"muted\">" + EscapeHtml(line) + "</p>\n";
    }
  }
  for (const auto& [unit, entries] : GroupByTimeUnit(Field(model, "entries"))) {
    AppendFigure(TtaPerRunChart(entries, unit),
                 "Time to accuracy of every run. Dots: runs that reached the target; bar: their median (the Kaplan-Meier chart counts the others); crosses in the "
                 "shaded column: runs that did not reach it (never given a time).",
                 out);
    AppendFigure(KaplanMeierChart(entries, unit),
                 "Kaplan-Meier estimate of the share of runs not yet at the target by training time, with the "
                 "log-log 95% band; runs that stopped below the target are censored. Hollow dot: median.",
                 out);
  }
  out += "</section>\n";
}

void AppendEntry(const json& entry, std::size_t index, std::string& out) {
  const std::string name = StringOf(Field(entry, "name"));
  const std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  out += fmt::format("<article class=\"entry\" id=\"entry-{}\"><h3>{}</h3>\n", index, EscapeHtml(name));
  std::string description = StringOf(Field(entry, "description"));
  if (!description.empty()) out += "<p>" + EscapeHtml(description) + "</p>\n";
  std::string meta = fmt::format("Source: {} · target: {} ≥ {} · time unit: {}", StringOf(Field(entry, "source")),
                                 StringOf(Field(entry, "metric")), FormatThreshold(Field(entry, "threshold")), unit);
  const json& kaplan_meier = Field(Field(entry, "stats"), "kaplan_meier");
  if (NumberOf(Field(kaplan_meier, "median"))) {
    meta += fmt::format(" · Kaplan-Meier median time to target ({}): {}", unit,
                        KaplanMeierMedianText(kaplan_meier, Field(Field(entry, "stats"), "runs")));
  }
  out += "<p class=\"meta\">" + EscapeHtml(meta) + "</p>\n";
  AppendFigure(AccuracyVsTimeChart(entry),
               "Metric against training time for every run, with the target line; dots mark each run's time to "
               "accuracy, dashed curves never reached the target.",
               out);
  if (HasMlperfFacts(entry)) {
    out += "<h4>MLPerf official score</h4>\n";
    AppendTable(MlperfScoreTable(entry), out);
    const ReportTable dropped = MlperfDroppedRunsTable(entry);
    if (!dropped.rows.empty()) {
      out += "<p>Runs that do not count:</p>\n";
      AppendTable(dropped, out);
    }
  }
  out += "<h4>Runs</h4>\n";
  AppendTable(RunsTable(entry), out);
  out += "<h4>Threshold sensitivity</h4>\n";
  AppendFigure(ThresholdSensitivityChart(entry),
               "Left: median TTA of the runs that reached each threshold, with their range, and the Kaplan-Meier "
               "median over all runs (hollow), which does not forget the runs that missed. Right: share of runs "
               "reaching each threshold, with its Clopper-Pearson 95% interval. Dashed line: the target.",
               out);
  AppendTable(SensitivityTable(entry), out);
  if (!ArrayOf(Field(entry, "expected_best")).empty()) {
    out += "<h4>Expected best of n runs</h4>\n<p class=\"muted\">" + EscapeHtml(kExpectedBestNote) + "</p>\n";
    AppendTable(ExpectedBestTable(entry), out);
  }
  out += "</article>\n";
}

void AppendGeneralization(const json& sets, std::string& out) {
  out += "<section id=\"generalization\"><h2>Generalization to unseen data (Table 4)</h2>\n";
  for (const json& image_set : ImageSets(sets)) {
    out += "<h3>" + EscapeHtml(ImageSetSummary(image_set)) + "</h3>\n";
    const json& verdict = Field(image_set, "verdict");
    std::string verdict_text = GeneralizationVerdictText(image_set);
    if (!verdict_text.empty()) {
      const json& passed = Field(verdict, "passed");
      bool ok = (passed.is_boolean() ? passed : Field(verdict, "generalizes")) == json(true);
      out += fmt::format("<p class=\"verdict-line {}\"><strong>Verdict:</strong> {}</p>\n", ok ? "ok" : "bad",
                         EscapeHtml(verdict_text));
    }
    AppendTable(GeneralizationModelsTable(image_set), out);
    if (!ArrayOf(Field(image_set, "models")).empty()) {
      AppendFigure(GeneralizationAccuracyChart(image_set),
                   "Accuracy of each model on the unseen images with Clopper-Pearson 95% intervals, grouped by "
                   "group. Filled: top-1; hollow: top-5.",
                   out);
    }
    if (!ArrayOf(Field(image_set, "groups")).empty()) {
      out += "<h4>Groups</h4>\n";
      AppendTable(GeneralizationGroupsTable(image_set), out);
    }
    if (const ReportTable bins = GeneralizationFrequencyBinsTable(image_set); !bins.rows.empty()) {
      out += "<h4>Accuracy by selection-frequency bin (share of labelers who judged the image correct)</h4>\n";
      AppendTable(bins, out);
    }
    if (!ArrayOf(Field(image_set, "pairs")).empty()) {
      out += "<h4>Pairwise comparisons (exact McNemar; Holm-adjusted over each metric's pairs, exploratory)</h4>\n";
      AppendTable(GeneralizationPairsTable(image_set), out);
    }
    if (!ArrayOf(Field(image_set, "failures")).empty()) {
      out += "<h4>Unreadable images</h4>\n";
      AppendTable(GeneralizationFailuresTable(image_set), out);
    }
  }
  // The sets side by side per bin, when more than one has frequencies (e.g. the three ImageNetV2 variants).
  {
    int with_bins = 0;
    for (const json& image_set : ImageSets(sets))
      with_bins += ArrayOf(Field(Field(image_set, "frequency_bins"), "by_bin")).empty() ? 0 : 1;
    if (with_bins > 1) {
      out += "<h3>Image sets side by side, by selection-frequency bin</h3>\n";
      AppendTable(FrequencyBinsAcrossSetsTable(ImageSets(sets)), out);
    }
  }
  out += "</section>\n";
}

void AppendHardware(const json& section, std::string& out) {
  out += "<section id=\"hardware\"><h2>Hardware: why TTA is what it is</h2>\n";
  // A section of external entries alone has no machine table, time or memory breakdown.
  const ReportTable machine = HardwareMachineTable(section);
  if (!machine.rows.empty()) AppendTable(machine, out);
  out += "<ul>";
  for (const std::string& sentence : HardwareBottleneckSentences(section)) out += "<li>" + EscapeHtml(sentence) + "</li>";
  out += "</ul>\n";
  AppendFigure(RooflineChart(section),
               "Roofline (Williams et al.): each entry's achieved FLOP/s at its operational intensity, progressive "
               "resizing's stages as separate points, under the measured memory slope and compute roofs.",
               out);
  if (ArrayOf(Field(section, "entries")).empty()) {
    out += "<p>" + EscapeHtml(kNoHardwareEntries) + "</p>\n</section>\n";
    return;
  }
  out += "<h3>Per entry</h3>\n";
  AppendTable(HardwareEntriesTable(section), out);
  const ReportTable time = HardwareTimeTable(section), memory = HardwareMemoryTable(section);
  if (!time.rows.empty()) {
    out += "<h3>Time breakdown (share of the profiled run's wall time)</h3>\n";
    AppendTable(time, out);
  }
  if (!memory.rows.empty()) {
    out += "<h3>Memory breakdown (counted from the tensors the trainer holds)</h3>\n";
    AppendTable(memory, out);
  }
  out += "</section>\n";
}

}  // namespace

std::string RenderHtml(const json& model) {
  const std::string title = StringOf(Field(model, "title"), "evalsuite report");
  const json& entries = ArrayOf(Field(model, "entries"));
  const json& generalization = Field(model, kGeneralizationSectionKey);
  const bool has_generalization = !ImageSets(generalization).empty();
  const json& hardware = Field(model, kHardwareSectionKey);
  const bool has_hardware = HasHardwareSection(hardware);

  std::string out;
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out +=
      "<title>" + EscapeHtml(title) + "</title><style>" + std::string(kReportCss) + "</style></head>\n<body><main>\n";
  out += "<header class=\"report-header\"><h1>" + EscapeHtml(title) + "</h1>";
  std::string host = StringOf(Field(Field(model, "environment"), "host"));
  out += "<p class=\"meta\">" +
         EscapeHtml(fmt::format("Generated {} · report schema {}{}", StringOf(Field(model, "generated_at")),
                                StringOf(Field(model, "schema_version")), host.empty() ? "" : " · host " + host)) +
         "</p>";
  out += "<nav class=\"toc\"><a href=\"#verdict\">Verdict</a><a href=\"#table\">Tables 2-3</a>";
  if (!entries.empty()) out += "<a href=\"#entries\">Entries</a>";
  if (has_generalization) out += "<a href=\"#generalization\">Generalization</a>";
  if (has_hardware) out += "<a href=\"#hardware\">Hardware</a>";
  out += "<a href=\"#environment\">Environment</a></nav></header>\n";

  AppendVerdicts(model, out);
  AppendOverview(model, out);
  if (!entries.empty()) {
    out += "<section id=\"entries\"><h2>Entries</h2>\n";
    for (std::size_t i = 0; i < entries.size(); ++i) AppendEntry(entries[i], i, out);
    out += "</section>\n";
  }
  if (has_generalization) AppendGeneralization(generalization, out);
  if (has_hardware) AppendHardware(hardware, out);

  if (!ArrayOf(Field(model, "methods")).empty()) {
    out += "<section id=\"methods\"><h2>Methods</h2>\n";
    AppendTable(MethodsTable(model), out);
    out += "</section>\n";
  }
  out += "<section id=\"environment\"><h2>Environment</h2>\n";
  AppendTable(EnvironmentTable(Field(model, "environment")), out);
  const json& plan = Field(model, "plan");
  if (!plan.is_null() && !plan.empty()) {
    out += "<details><summary>Effective plan</summary><pre>" + EscapeHtml(plan.dump(2)) + "</pre></details>\n";
  }
  out += "</section>\n</main></body></html>\n";
  return out;
}

}  // namespace evalsuite::reports
