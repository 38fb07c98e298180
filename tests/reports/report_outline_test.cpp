// One outline, two markups (reports/report_outline.h): report.md and report.html have the same headings in the same
// order, for a model with every section and for an empty one, and the sections appear exactly under their
// conditions. Headings are compared by text (Markdown shows the overview's parts at level 2, HTML nests them).
#include "reports/report_outline.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "reports/cost_section.h"
#include "reports/given_sections.h"
#include "reports/hardware_section.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// "## Verdict" → "Verdict", in order; the fenced plan block's content is skipped.
std::vector<std::string> MarkdownHeadings(const std::string& markdown) {
  std::vector<std::string> headings;
  static const std::regex heading(R"(^#{1,6} (.*)$)");
  bool in_code = false;
  std::size_t start = 0;
  while (start < markdown.size()) {
    std::size_t end = markdown.find('\n', start);
    if (end == std::string::npos) end = markdown.size();
    const std::string line = markdown.substr(start, end - start);
    if (line.rfind("```", 0) == 0) in_code = !in_code;
    std::smatch match;
    if (!in_code && std::regex_match(line, match, heading)) headings.push_back(match[1]);
    start = end + 1;
  }
  return headings;
}

// <h1>..<h6> and the plan's <summary>, in order, leaving out the verdict cards (Markdown writes their entry names as
// bold text, not headings).
std::vector<std::string> HtmlHeadings(std::string html) {
  static const std::regex card(R"(<article class="verdict [^"]*">.*?</article>)");
  html = std::regex_replace(html, card, "");
  static const std::regex heading(R"(<h([1-6])>(.*?)</h\1>|<summary>(.*?)</summary>)");
  std::vector<std::string> headings;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), heading); it != std::sregex_iterator(); ++it) {
    headings.push_back((*it)[2].matched ? (*it)[2].str() : (*it)[3].str());
  }
  return headings;
}

json HardwareSection() {
  return json::parse(R"({
    "machine": {"cpu_model": "AMD EPYC", "cores": 2, "threads": 2, "peak_fp32_flops": 100e9, "bandwidth_bytes": 10e9,
                "ridge_fp32": 10},
    "entries": [
      {"entry": "baseline", "precision": "fp32", "batch_size": 128, "flops_per_sample": 7.47e6,
       "bytes_per_sample": 1.28e6, "intensity": 5.84, "samples_per_second": 4000, "achieved_flops": 29.9e9,
       "mfu": 0.299, "bound": "memory-bound", "evidence": "left of the ridge",
       "time": {"data": 1, "forward": 3, "backward": 4, "optimizer": 1, "evaluation": 1, "idle": 0, "wall": 10},
       "memory": {"parameters": 1048576, "steady": 3145728, "peak": 5242880}}]
  })");
}

// Every section: verdicts, the overview with comparisons, a compared pair and the cost, entries, generalization,
// hardware, methods, environment and the plan.
ReportModel FullModel() {
  StabilityReportInput input = testing::SyntheticInput();
  input.settings.compare = {{"fast", "slow"}};
  input.cost_per_hour = 3.6;
  for (analysis::Entry& entry : input.entries) {
    for (analysis::Run& run : entry.runs) run.usage = analysis::RunUsage{run.wall_seconds, run.time_spent, 1, 1024};
  }
  AddGeneralizationSection(input, testing::GeneralizationSection(), "test");
  input.hardware_given = HardwareSection();
  DecodeHardwareSection(input);
  return BuildStabilityReport(input);
}

TEST(ReportOutlineTest, MarkdownAndHtmlHaveTheSameHeadingsInTheSameOrder) {
  const ReportModel model = FullModel();
  const std::vector<std::string> markdown = MarkdownHeadings(RenderMarkdown(model));
  const std::vector<std::string> html = HtmlHeadings(RenderHtml(model));
  EXPECT_EQ(markdown, html);
  // The model has every section, so the outline names all of them, in the report's order.
  std::vector<std::string> ids;
  for (const OutlineSection& section : ReportSections(model)) ids.push_back(section.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"verdict", "table", "entries", "generalization", "hardware", "methods",
                                           "environment"}));
  for (const std::string& heading :
       {"Comparisons between entries (probability of improvement)", "Is A faster than B?", "What the runs cost",
        "Generalization to unseen data (Table 4)", "Hardware: why TTA is what it is", "Effective plan"}) {
    EXPECT_NE(std::find(markdown.begin(), markdown.end(), heading), markdown.end()) << heading;
  }
}

// Issue 50 item 10: the report's text called the P(A faster) interval "a percentile bootstrap interval" while its
// table (and `compare`) say Newcombe's. The text now names the interval the table shows, in both renderings.
TEST(ReportOutlineTest, TheProbabilityOfImprovementTextNamesTheTablesInterval) {
  const ReportModel model = FullModel();
  for (const std::string& rendered : {RenderMarkdown(model), RenderHtml(model)}) {
    const std::size_t part = rendered.find("Comparisons between entries (probability of improvement)");
    ASSERT_NE(part, std::string::npos);
    const std::size_t table = rendered.find("P(TTA_A &lt; TTA_B) [95% CI, Newcombe]", part) != std::string::npos
                                  ? rendered.find("P(TTA_A &lt; TTA_B) [95% CI, Newcombe]", part)
                                  : rendered.find("P(TTA_A < TTA_B) [95% CI, Newcombe]", part);
    ASSERT_NE(table, std::string::npos);
    const std::string text = rendered.substr(part, table - part);
    EXPECT_NE(text.find("interval (method 5, Hanley-McNeil variance inverted"), std::string::npos) << text;
    EXPECT_EQ(text.find("bootstrap"), std::string::npos) << text;
  }
}

TEST(ReportOutlineTest, AnEmptyModelHasTheSameFewSectionsInBoth) {
  const ReportModel model;
  const std::vector<std::string> markdown = MarkdownHeadings(RenderMarkdown(model));
  EXPECT_EQ(markdown, HtmlHeadings(RenderHtml(model)));
  EXPECT_EQ(markdown, (std::vector<std::string>{"evalsuite report", "Verdict",
                                                "Time to accuracy (DAWNBench Tables 2-3)", "Environment"}));
}

// The HTML table of contents lists the sections the outline says are present, no more.
TEST(ReportOutlineTest, TheHtmlContentsListTheSectionsPresent) {
  const std::string html = RenderHtml(BuildStabilityReport(testing::SyntheticInput()));
  EXPECT_NE(html.find("<nav class=\"toc\"><a href=\"#verdict\">Verdict</a><a href=\"#table\">Tables 2-3</a><a "
                      "href=\"#entries\">Entries</a><a href=\"#environment\">Environment</a></nav>"),
            std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
