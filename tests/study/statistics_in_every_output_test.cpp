// Every statistic of stats/stability_statistics.h reaches every output that reads the table: report.json's table
// rows (always), the Markdown and HTML Tables 2-3 view (every statistic with a heading), `study show` (every
// statistic with a summary heading), and the Methods table (every method a statistic cites). A statistic added to
// the table, or one output dropped from it, fails here. The CoV of time per epoch (issue 26 item 3) is checked by
// value in all four against a hand-computed figure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/report.h"
#include "stats/stability_statistics.h"
#include "store/run_store.h"
#include "study/study_summary.h"
#include "tests/support/epoch_run_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

struct AllOutputs {
  reports::ReportModel report;
  json model;  // report.json's object (reports::ToJson)
  std::string json_text, markdown, html, study_show;
};

// Four runs with time per epoch 10, 12, 11 and 9 s: CoV = sd / mean = sqrt(5/3) / 10.5 = 12.2951%.
constexpr double kTimePerEpochCov = 0.12295;

AllOutputs RenderAll() {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("s", "import", json::object(), json::object());
  store::EntryRecord entry;
  entry.name = "e";
  entry.threshold = 0.9;
  store->UpsertEntry(id, entry);
  store->InsertRun(id, evalsuite::testing::StoredEpochRun(0, 2, 10, 0.92));
  store->InsertRun(id, evalsuite::testing::StoredEpochRun(1, 3, 12, 0.92));
  store->InsertRun(id, evalsuite::testing::StoredEpochRun(2, 2, 11, 0.92));
  store->InsertRun(id, evalsuite::testing::StoredEpochRun(3, 3, 9, 0.92));
  AllOutputs out;
  out.report = reports::BuildStabilityReport(BuildReportInput(*store, {*store->FindStudy("s")}));
  out.model = reports::ToJson(out.report);
  out.json_text = reports::RenderJson(out.report);
  out.markdown = reports::RenderMarkdown(out.report);
  out.html = reports::RenderHtml(out.report);
  out.study_show = FormatStudySummary(*store, *store->FindStudy("s"));
  return out;
}

// The line that starts the table whose header holds `first_heading` ("| Entry | Target |...", "entry  threshold...").
std::string LineWith(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  if (at == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

TEST(StatisticsInEveryOutputTest, EveryStatisticOfTheTableIsInEveryOutputThatShowsIt) {
  const AllOutputs out = RenderAll();
  const json report_json = json::parse(out.json_text);
  ASSERT_EQ(report_json["table"].size(), 1u);
  const json& row = report_json["table"][0];
  const std::string markdown_header = LineWith(out.markdown, "| Entry | Target |");
  const std::string html_header = LineWith(out.html, "<th class=\"wrap\">Entry</th>");
  const std::string show_header = LineWith(out.study_show, "entry  threshold");
  ASSERT_FALSE(markdown_header.empty());
  ASSERT_FALSE(html_header.empty());
  ASSERT_FALSE(show_header.empty());
  for (const stats::StabilityStatistic& statistic : stats::StabilityStatistics()) {
    SCOPED_TRACE(statistic.key);
    ASSERT_NE(statistic.compute, nullptr);
    EXPECT_TRUE(row.contains(statistic.key));
    if (statistic.has_interval) {
      EXPECT_TRUE(row.contains(statistic.key + "_lower"));
      EXPECT_TRUE(row.contains(statistic.key + "_upper"));
    }
    if (statistic.states_basis) EXPECT_TRUE(row.contains(statistic.key + "_basis"));
    if (!statistic.flag_key.empty()) EXPECT_TRUE(row.contains(statistic.flag_key));
    if (!statistic.heading.empty()) {
      EXPECT_NE(markdown_header.find("| " + statistic.heading + " |"), std::string::npos) << markdown_header;
      EXPECT_NE(html_header.find(">" + statistic.heading + "</th>"), std::string::npos) << html_header;
    }
    if (!statistic.summary_heading.empty()) {
      EXPECT_NE(show_header.find(statistic.summary_heading), std::string::npos) << show_header;
    }
    for (const stats::StatisticMethod& method : statistic.methods) {
      EXPECT_NE(out.markdown.find("| " + method.name + " | " + method.formula + " |"), std::string::npos)
          << method.name;
      EXPECT_NE(out.html.find("<td>" + method.name + "</td>"), std::string::npos) << method.name;
      bool in_json = false;
      for (const json& m : report_json["methods"]) in_json = in_json || m["name"] == method.name;
      EXPECT_TRUE(in_json) << method.name;
    }
  }
}

// Only a statistic that says where it is kept out may be missing from an output: report.json-only ones have no
// heading, and `study show` keeps the columns with a summary heading. The time-per-epoch CoV is in all four.
TEST(StatisticsInEveryOutputTest, TimePerEpochCovIsInAllFourOutputsWithTheHandComputedValue) {
  const AllOutputs out = RenderAll();
  const json report_json = json::parse(out.json_text);
  EXPECT_NEAR(report_json["table"][0]["time_per_epoch_cov"].get<double>(), kTimePerEpochCov, 1e-5);
  EXPECT_NEAR(report_json["entries"][0]["variation"]["cov_time_per_epoch"].get<double>(), kTimePerEpochCov, 1e-5);

  const std::string markdown_header = LineWith(out.markdown, "| Entry | Target |");
  EXPECT_NE(markdown_header.find("| CoV of time per epoch |"), std::string::npos);
  EXPECT_NE(LineWith(out.markdown, "| e | val_top1").find("| 12.3% |"), std::string::npos) << out.markdown;
  EXPECT_NE(out.html.find("<td class=\"num\">12.3%</td>"), std::string::npos);
  EXPECT_NE(LineWith(out.study_show, "entry  threshold").find("CoV of time per epoch"), std::string::npos);
  EXPECT_NE(out.study_show.find("  12.3%  "), std::string::npos) << out.study_show;
}

}  // namespace
}  // namespace evalsuite::study
