// HTML rendering without a browser: one self-contained file (no scripts, links or network references), the
// expected charts, the same table rows as the Markdown, and hostile names escaped everywhere.
#include <gtest/gtest.h>

#include <regex>

#include "reports/given_sections.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;
using testing::Contains;

std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

ReportModel ModelWithGeneralization(const std::string& fast_name = "fast") {
  StabilityReportInput input = testing::SyntheticInput(fast_name);
  AddGeneralizationSection(input, testing::GeneralizationSection(), "test");
  return BuildStabilityReport(input);
}

TEST(HtmlRendererTest, IsOneSelfContainedFile) {
  std::string html = RenderHtml(ModelWithGeneralization());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(Contains(html, "<style>"));
  for (const char* forbidden : {"http", "<script", "<link", "src=", "url(", "@import", "@font-face", "xmlns"}) {
    EXPECT_FALSE(Contains(html, forbidden)) << forbidden;
  }
}

TEST(HtmlRendererTest, HasEveryChart) {
  std::string html = RenderHtml(ModelWithGeneralization());
  EXPECT_EQ(Count(html, "<svg class=\"chart\" data-chart=\"accuracy-vs-time\""), 3u);
  EXPECT_EQ(Count(html, "<svg class=\"chart\" data-chart=\"threshold-sensitivity\""), 3u);
  EXPECT_EQ(Count(html, "<svg class=\"chart\" data-chart=\"tta-per-run\""), 1u);
  EXPECT_EQ(Count(html, "<svg class=\"chart\" data-chart=\"kaplan-meier\""), 1u);
  EXPECT_EQ(Count(html, "<svg class=\"chart\" data-chart=\"generalization-accuracy\""), 1u);
  // Every drawn value is finite: no NaN or inf leaks into coordinates.
  EXPECT_FALSE(std::regex_search(html, std::regex("=\"[^\"]*(nan|inf)[^\"]*\"")));
}

TEST(HtmlRendererTest, OpensWithVerdictsAndShowsTheMarkdownTables) {
  std::string html = RenderHtml(ModelWithGeneralization());
  std::size_t verdict = html.find("id=\"verdict\""), table = html.find("id=\"table\"");
  EXPECT_LT(verdict, table);
  EXPECT_TRUE(Contains(html,
                       "<article class=\"verdict inconclusive\"><span class=\"badge\">Result: INCONCLUSIVE</span>"
                       "<h3>fast</h3>"));
  EXPECT_TRUE(Contains(html,
                       "<article class=\"verdict unstable\"><span class=\"badge\">Result: NOT STABLE</span>"
                       "<h3>never</h3>"));
  EXPECT_TRUE(Contains(html, "<span class=\"badge\">Result: STABLE</span><h3>slow</h3>"));
  EXPECT_TRUE(
      Contains(html, "<li>hit rate 4/5 = 80% &lt; 90%, but its 95% upper bound 99.5% &gt;= 90%: can&#39;t tell</li>"));
  EXPECT_TRUE(Contains(html,
                       "<td class=\"num\">80.0% [28.4%, 99.5%]</td><td class=\"num\">110.0 (Kaplan-Meier)</td><td "
                       "class=\"num\">107.5</td>"
                       "<td class=\"num\">111.7</td><td class=\"num\">146.2</td>"));
  EXPECT_TRUE(Contains(html, "<tr class=\"target\"><td class=\"num\">0.9 (target)</td>"));
  EXPECT_TRUE(Contains(html,
                       "<td class=\"wrap\">resnet18-pretrained</td><td>pretrained</td>"
                       "<td class=\"num\">93.02% [92.02%, 93.92%]</td>"));
  EXPECT_TRUE(Contains(html, "<td class=\"num\">0.07681</td>"));
  EXPECT_TRUE(Contains(html, "GENERALIZES: TTA-optimized models are within 1.3 points"));
}

TEST(HtmlRendererTest, EscapesHostileNamesEverywhere) {
  const std::string hostile = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>";
  StabilityReportInput input = testing::SyntheticInput(hostile);
  input.entries[0].description = "see http://evil.example/x.js";
  input.entries[0].runs[0].error = "<b>boom</b>";
  input.plan["note"] = "</pre><script>alert(2)</script>";
  std::string html = RenderHtml(BuildStabilityReport(input));
  EXPECT_FALSE(Contains(html, "<script"));
  EXPECT_FALSE(Contains(html, "<img"));
  EXPECT_FALSE(Contains(html, "<b>boom"));
  EXPECT_FALSE(Contains(html, "http://"));
  EXPECT_TRUE(Contains(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&gt;&lt;img src=x"));
  EXPECT_TRUE(Contains(html, "data-entry=\"&lt;script&gt;"));
  EXPECT_TRUE(Contains(html, "see http:&#47;/evil.example/x.js"));
}

TEST(HtmlRendererTest, RendersAnEmptyModel) {
  std::string html = RenderHtml(ReportModel{});
  EXPECT_TRUE(Contains(html, "No entries."));
  EXPECT_TRUE(Contains(html, "</html>"));
}

}  // namespace
}  // namespace evalsuite::reports
