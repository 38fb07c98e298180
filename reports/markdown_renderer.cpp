// RenderMarkdown: the report model as GitHub-flavoured Markdown, verdict first (MLPerf loadgen style: the
// result, then one line per rule), then the same tables the HTML shows. User text is escaped, so an entry
// named "<script>" or "a|b" reads as itself and cannot break a table.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "reports/cost_section.h"
#include "reports/gpu_use.h"
#include "reports/generalization_section.h"
#include "reports/generalization_tables.h"
#include "reports/hardware_section.h"
#include "reports/json_access.h"
#include "reports/mlperf_table.h"
#include "reports/report.h"
#include "reports/comparison_section.h"
#include "reports/report_table.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Escapes what could change meaning (emphasis, code, tables, headings, links, raw HTML, quotes) while keeping
// ordinary names readable: "val_top1" stays as it is (an underscore inside a word never emphasizes), and
// "[" is left alone because only "](", "][" or "]:" make a link.
std::string EscapeMarkdown(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    switch (c) {
      // Only what could start an entity, a tag, an autolink or a block quote: "80% < 90%" stays readable.
      case '&':
        out += std::isalnum(static_cast<unsigned char>(next)) || next == '#' ? "&amp;" : "&";
        break;
      case '<':
        out +=
            std::isalpha(static_cast<unsigned char>(next)) || next == '/' || next == '!' || next == '?' ? "&lt;" : "<";
        break;
      case '>':
        out += i == 0 ? "\\>" : ">";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      case '_':
        if (i > 0 && IsWordChar(text[i - 1]) && IsWordChar(next)) {
          out += c;
          break;
        }
        out += "\\_";
        break;
      case ']':
        if (next == '(' || next == '[' || next == ':') out += '\\';
        out += c;
        break;
      case '\\':
      case '`':
      case '*':
      case '|':
      case '#':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

void AppendTable(const ReportTable& table, std::string& out) {
  if (table.rows.empty()) {
    out += "_(none)_\n\n";
    return;
  }
  out += "|";
  for (const auto& cell : table.header) out += " " + EscapeMarkdown(cell) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    out += i < table.numeric.size() && table.numeric[i] ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + EscapeMarkdown(cell) + " |";
    out += "\n";
  }
  out += "\n";
}

// A fence longer than any run of backticks inside, so a plan holding ``` cannot end the block early.
std::string CodeFence(const std::string& content) {
  std::size_t longest = 0, run = 0;
  for (char c : content) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

void AppendVerdicts(const json& model, std::string& out) {
  out += "## Verdict\n\n";
  std::string statement = StringOf(Field(Field(model, "rule"), "statement"));
  if (!statement.empty()) out += EscapeMarkdown(statement) + "\n\n";
  const json& verdicts = ArrayOf(Field(model, "verdicts"));
  if (verdicts.empty()) out += "_No entries._\n\n";
  for (const json& verdict : verdicts) {
    out += fmt::format("**{}** — Result: **{}**\n\n", EscapeMarkdown(StringOf(Field(verdict, "entry"))),
                       EscapeMarkdown(StringOf(Field(verdict, "result"), "NOT STABLE")));
    // When the machine, not the training, may explain the result, the card says so first (reports/machine_noise.h).
    if (const std::string first = StringOf(Field(verdict, "first_line")); !first.empty()) {
      out += "- **" + EscapeMarkdown(first) + "**\n";
    }
    const json& interval = Field(verdict, "cov_interval");
    const bool on_epochs = StringOf(Field(verdict, "basis")) == "epochs";
    out += fmt::format("- {}/{} runs reached the target {}; CoV of {} {}\n", StringOf(Field(verdict, "reached")),
                       StringOf(Field(verdict, "runs")), EscapeMarkdown(FormatThreshold(Field(verdict, "threshold"))),
                       on_epochs ? "epochs to target (the rule's basis)" : "TTA",
                       EscapeMarkdown(FormatPercentInterval(Field(verdict, "cov"), Field(interval, "lower"),
                                                            Field(interval, "upper"))));
    for (const json& reason : ArrayOf(Field(verdict, "reasons"))) out += "- " + EscapeMarkdown(StringOf(reason)) + "\n";
    out += "\n";
  }
}

void AppendEntry(const json& entry, std::string& out) {
  out += "### " + EscapeMarkdown(StringOf(Field(entry, "name"))) + "\n\n";
  std::string description = StringOf(Field(entry, "description"));
  if (!description.empty()) out += EscapeMarkdown(description) + "\n\n";
  const json& stats = Field(entry, "stats");
  const json& kaplan_meier = Field(stats, "kaplan_meier");
  std::string unit = TimeUnitSymbol(StringOf(Field(entry, "time_unit")));
  out += fmt::format("Source: {} · target: {} ≥ {} · time unit: {}", EscapeMarkdown(StringOf(Field(entry, "source"))),
                     EscapeMarkdown(StringOf(Field(entry, "metric"))),
                     EscapeMarkdown(FormatThreshold(Field(entry, "threshold"))), EscapeMarkdown(unit));
  if (NumberOf(Field(kaplan_meier, "median"))) {
    out += fmt::format(" · Kaplan-Meier median time to target ({}): {}", EscapeMarkdown(unit),
                       KaplanMeierMedianText(kaplan_meier, Field(Field(entry, "stats"), "runs")));
  }
  out += "\n\n";
  if (HasMlperfFacts(entry)) {
    out += "#### MLPerf official score\n\n";
    AppendTable(MlperfScoreTable(entry), out);
    const ReportTable dropped = MlperfDroppedRunsTable(entry);
    if (!dropped.rows.empty()) {
      out += "Runs that do not count:\n\n";
      AppendTable(dropped, out);
    }
  }
  out += "#### Runs\n\n";
  AppendTable(RunsTable(entry), out);
  out += "#### Threshold sensitivity\n\n";
  AppendTable(SensitivityTable(entry), out);
  if (!ArrayOf(Field(entry, "expected_best")).empty()) {
    out += "#### Expected best of n runs\n\n" + std::string(kExpectedBestNote) + "\n\n";
    AppendTable(ExpectedBestTable(entry), out);
  }
}

void AppendGeneralization(const json& sets, std::string& out) {
  out += "## Generalization to unseen data (Table 4)\n\n";
  for (const json& image_set : ImageSets(sets)) {
    out += "### " + EscapeMarkdown(ImageSetSummary(image_set)) + "\n\n";
    std::string verdict = GeneralizationVerdictText(image_set);
    if (!verdict.empty()) out += "**Verdict:** " + EscapeMarkdown(verdict) + "\n\n";
    AppendTable(GeneralizationModelsTable(image_set), out);
    if (!ArrayOf(Field(image_set, "groups")).empty()) {
      out += "#### Groups\n\n";
      AppendTable(GeneralizationGroupsTable(image_set), out);
    }
    if (const ReportTable bins = GeneralizationFrequencyBinsTable(image_set); !bins.rows.empty()) {
      out += "#### Accuracy by selection-frequency bin (share of labelers who judged the image correct)\n\n";
      AppendTable(bins, out);
    }
    if (!ArrayOf(Field(image_set, "pairs")).empty()) {
      out += "#### Pairwise comparisons (exact McNemar; Holm-adjusted over each metric's pairs, exploratory)\n\n";
      AppendTable(GeneralizationPairsTable(image_set), out);
    }
    if (!ArrayOf(Field(image_set, "failures")).empty()) {
      out += "#### Unreadable images\n\n";
      AppendTable(GeneralizationFailuresTable(image_set), out);
    }
  }
  // The sets side by side per bin, when more than one has frequencies (e.g. the three ImageNetV2 variants).
  {
    int with_bins = 0;
    for (const json& image_set : ImageSets(sets))
      with_bins += ArrayOf(Field(Field(image_set, "frequency_bins"), "by_bin")).empty() ? 0 : 1;
    if (with_bins > 1) {
      out += "### Image sets side by side, by selection-frequency bin\n\n";
      AppendTable(FrequencyBinsAcrossSetsTable(ImageSets(sets)), out);
    }
  }
}

void AppendHardware(const json& section, std::string& out) {
  out += "## Hardware: why TTA is what it is\n\n";
  // A section of external entries alone has no machine table, time or memory breakdown.
  const ReportTable machine = HardwareMachineTable(section);
  if (!machine.rows.empty()) AppendTable(machine, out);
  for (const std::string& sentence : HardwareBottleneckSentences(section)) out += "- " + EscapeMarkdown(sentence) + "\n";
  if (ArrayOf(Field(section, "entries")).empty()) {
    out += "\n" + EscapeMarkdown(kNoHardwareEntries) + "\n\n";
    return;
  }
  out += "\n### Per entry (progressive-resize stages as separate rows)\n\n";
  AppendTable(HardwareEntriesTable(section), out);
  const ReportTable time = HardwareTimeTable(section), memory = HardwareMemoryTable(section);
  if (!time.rows.empty()) {
    out += "### Time breakdown (share of the profiled run's wall time)\n\n";
    AppendTable(time, out);
  }
  if (!memory.rows.empty()) {
    out += "### Memory breakdown (counted from the tensors the trainer holds)\n\n";
    AppendTable(memory, out);
  }
  out += "The roofline chart is in report.html.\n\n";
}

}  // namespace

std::string RenderMarkdown(const json& model) {
  std::string out;
  out += "# " + EscapeMarkdown(StringOf(Field(model, "title"), "evalsuite report")) + "\n\n";
  out += fmt::format("Generated {} · report schema {}\n\n", EscapeMarkdown(StringOf(Field(model, "generated_at"))),
                     StringOf(Field(model, "schema_version")));
  AppendVerdicts(model, out);

  out += "## Time to accuracy (DAWNBench Tables 2-3)\n\n";
  AppendTable(StabilityTable(model), out);
  out += std::string(kEpochsColumnNote) + "\n\n";
  if (!ArrayOf(Field(model, "comparisons")).empty()) {
    out += "## Comparisons between entries (probability of improvement)\n\n" + std::string(kComparisonsNote) + "\n\n";
    AppendTable(ComparisonsTable(model), out);
  }
  if (Field(model, "compare").is_object()) {  // reports/comparison_section.h
    out += "## Is A faster than B?\n\n" + std::string(kCompareNote) + "\n\n";
    for (const std::string& line : SequentialLines(model)) out += EscapeMarkdown(line) + "\n\n";
    AppendTable(CompareTable(model), out);
  }
  if (const json& cost = Field(model, kCostSectionKey); cost.is_object()) {
    out += "## What the runs cost\n\n" + std::string(kCostNote) + "\n\n";
    AppendTable(CostTable(cost), out);
    if (ReportTable gpu = GpuTable(cost); !gpu.rows.empty()) {
      out += std::string(kGpuNote) + "\n\n";
      AppendTable(gpu, out);
    } else if (std::string line = GpuNotSampledLine(cost); !line.empty()) {
      out += line + "\n\n";
    }
  }

  const json& entries = ArrayOf(Field(model, "entries"));
  if (!entries.empty()) out += "## Entries\n\n";
  for (const json& entry : entries) AppendEntry(entry, out);

  const json& generalization = Field(model, kGeneralizationSectionKey);
  if (!ImageSets(generalization).empty()) AppendGeneralization(generalization, out);
  const json& hardware = Field(model, kHardwareSectionKey);
  if (HasHardwareSection(hardware)) AppendHardware(hardware, out);

  if (!ArrayOf(Field(model, "methods")).empty()) {
    out += "## Methods\n\n";
    AppendTable(MethodsTable(model), out);
  }
  out += "## Environment\n\n";
  AppendTable(EnvironmentTable(Field(model, "environment")), out);
  const json& plan = Field(model, "plan");
  if (!plan.is_null() && !plan.empty()) {
    std::string text = plan.dump(2);
    std::string fence = CodeFence(text);
    out += "## Effective plan\n\n" + fence + "json\n" + text + "\n" + fence + "\n";
  }
  return out;
}

}  // namespace evalsuite::reports
