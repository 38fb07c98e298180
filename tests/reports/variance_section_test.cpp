// The report's "Sources of variance" section (reports/variance_section.h): present exactly when the plan is a variance
// design, the same figures in report.json, Markdown and HTML, and the sentences a researcher acts on.
#include "reports/variance_section.h"

#include <gtest/gtest.h>

#include <cmath>

#include "reports/report.h"
#include "reports/report_json.h"
#include "reports/value_format.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;
using testing::Contains;

StabilityReportInput DesignInput() {
  StabilityReportInput input;
  input.title = "variance design";
  input.entries.push_back(testing::VarianceDesignEntry());
  input.settings.variance = analysis::VarianceSettings{{"init", "data_order"}, 3, 2};
  return input;
}

TEST(VarianceSectionTest, OnlyAVarianceDesignHasTheSection) {
  StabilityReportInput input = DesignInput();
  input.settings.variance.reset();
  const ReportModel model = BuildStabilityReport(input);
  EXPECT_TRUE(model.variance_sources.empty());
  EXPECT_FALSE(ToJson(model).contains(kVarianceSectionKey));
  EXPECT_FALSE(Contains(RenderMarkdown(model), "Sources of variance"));
}

TEST(VarianceSectionTest, JsonMarkdownAndHtmlCarryTheSameAnswer) {
  const ReportModel model = BuildStabilityReport(DesignInput());
  ASSERT_EQ(model.variance_sources.size(), 1u);
  const analysis::VarianceSources& v = model.variance_sources.front().sources;
  ASSERT_FALSE(v.withheld);
  EXPECT_EQ(v.runs, 18);
  EXPECT_EQ(v.levels, 3);
  EXPECT_EQ(v.repeats, 2);
  ASSERT_TRUE(v.cov_tta);

  const json section = ToJson(model).at(kVarianceSectionKey);
  ASSERT_EQ(section.size(), 1u);
  EXPECT_EQ(section[0]["entry"], "design");
  EXPECT_EQ(section[0]["varied"], json({"init", "data_order"}));
  EXPECT_NEAR(section[0]["cov_tta"].get<double>(), *v.cov_tta, 1e-12);
  double total_share = 0;
  for (const json& share : section[0]["shares"]) total_share += share["share"].get<double>();
  EXPECT_NEAR(total_share, 1.0, 1e-9);
  EXPECT_EQ(section[0]["responses"].size(), 4u);
  EXPECT_EQ(section[0]["responses"][0]["response"], "ln_tta");
  // No run logged epochs: said so, not "0 runs cannot separate 3 variances".
  EXPECT_EQ(section[0]["responses"][1]["withheld"],
            "no run has a value: every one did not reach the target, or logged no epochs");
  // Every run gave the same final metric (0.91): its components are all exactly 0, not a fit of noise.
  for (const json& c : section[0]["responses"][3]["components"]) EXPECT_EQ(c["variance"], 0.0);

  const std::string line = VarianceSummaryLine(v);
  EXPECT_TRUE(Contains(line, "CoV of TTA " + FormatPercent(*v.cov_tta))) << line;
  const std::string markdown = RenderMarkdown(model);
  EXPECT_TRUE(Contains(markdown, "Sources of variance"));
  EXPECT_TRUE(Contains(markdown, line)) << markdown;
  EXPECT_TRUE(
      Contains(markdown,
               "Design: 18 runs: initialization and data order at 3 seeds each, crossed; up to 2 runs per combination"))
      << markdown.substr(markdown.find("## Sources of variance"));
  const std::string html = RenderHtml(model);
  EXPECT_TRUE(Contains(html, "data-chart=\"variance-sources\""));
  EXPECT_TRUE(Contains(html, "initialization"));
}

// Data order was made to vary more than init (0.03 x level^2 against 0.04 x level in ln TTA): it leads.
TEST(VarianceSectionTest, TheLargerSourceLeads) {
  const ReportModel model = BuildStabilityReport(DesignInput());
  const analysis::VarianceSources& v = model.variance_sources.front().sources;
  ASSERT_GE(v.shares.size(), 3u);
  EXPECT_EQ(v.shares.front().source, "data_order");
  // Repeats differ by 0.004 in ln TTA every time: the same seeds again are seen to vary, by an SD near 0.0028.
  ASSERT_TRUE(v.same_seeds);
  EXPECT_FALSE(v.same_seeds->identical);
  EXPECT_NEAR(std::sqrt(v.same_seeds->variance), 0.004 / std::sqrt(2.0), 2e-4);
}

TEST(VarianceSectionTest, AHeldSourceThatVariedIsSaidNotHidden) {
  StabilityReportInput input = DesignInput();
  input.settings.variance->vary = {"init"};  // data order varies in the runs but the plan says it is held
  const ReportModel model = BuildStabilityReport(input);
  const std::string line = VarianceSummaryLine(model.variance_sources.front().sources);
  EXPECT_TRUE(Contains(line, "withheld")) << line;
  EXPECT_TRUE(Contains(line, "holds data_order")) << line;
  EXPECT_TRUE(Contains(RenderMarkdown(model), line));
}

}  // namespace
}  // namespace evalsuite::reports
