// The report at scale: every run's evaluations in the side file, the model's curves (every run up to 20, a band of
// quantiles and a few runs beyond), a report whose size grows with the entries and runs but not with the
// evaluations, and charts of many runs that stay small.
#include "reports/run_curves.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

// Run i of an entry reaches the target at 100 + i s (evaluations every `step` s); every fifth run never does.
analysis::Entry ManyRuns(const std::string& name, int runs, double step = 5) {
  analysis::Entry entry;
  entry.name = name;
  entry.source = "jsonl";
  entry.threshold = 0.9;
  for (int i = 0; i < runs; ++i) {
    analysis::Run run;
    run.index = i;
    run.seeds.run = i;
    const bool reaches = i % 5 != 4;
    run.status = reaches ? analysis::RunStatus::kReached : analysis::RunStatus::kNotReached;
    const double end = 100 + i;
    for (double t = step; t < end; t += step) run.points.push_back({t, 0.5 + 0.39 * t / end});
    run.points.push_back({end, reaches ? 0.91 : 0.89});
    run.time_spent = end;
    run.wall_seconds = end;
    entry.runs.push_back(std::move(run));
  }
  return entry;
}

TEST(RunPointsTest, TheSideFileHoldsEveryEvaluationOfEveryRunOneRunALine) {
  const StabilityReportInput input = testing::SyntheticInput();
  std::istringstream lines(RunPointsJsonLines(input));
  std::string line;
  for (const analysis::Entry& entry : input.entries) {
    for (std::size_t i = 0; i < entry.runs.size(); ++i) {
      ASSERT_TRUE(std::getline(lines, line)) << entry.name << " run " << i;
      const json parsed = json::parse(line);
      EXPECT_EQ(parsed["entry"], entry.name);
      EXPECT_EQ(parsed["run"], i);
      EXPECT_EQ(parsed["index"], entry.runs[i].index);
      ASSERT_EQ(parsed["points"].size(), entry.runs[i].points.size());
      for (std::size_t k = 0; k < entry.runs[i].points.size(); ++k) {
        EXPECT_EQ(parsed["points"][k][0].get<double>(), entry.runs[i].points[k].time);
        EXPECT_EQ(parsed["points"][k][1].get<double>(), entry.runs[i].points[k].metric);
      }
    }
  }
  EXPECT_FALSE(std::getline(lines, line)) << "one line per run, nothing else: " << line;
}

TEST(RunCurvesTest, UpToTwentyRunsTheChartHoldsEveryRunsPoints) {
  const analysis::Entry entry = ManyRuns("e", 20);
  const json curves = ToJson(EntryCurves(entry, entry.threshold, 1));
  EXPECT_TRUE(curves["band"].is_null());
  ASSERT_EQ(curves["drawn"].size(), 20u);
  EXPECT_EQ(curves["drawn"][7]["points"].size(), entry.runs[7].points.size());
  EXPECT_DOUBLE_EQ(curves["max_time"].get<double>(), 119);
  EXPECT_DOUBLE_EQ(curves["metric_max"].get<double>(), 0.91);
}

TEST(RunCurvesTest, BeyondTwentyRunsABandOfQuantilesAndFiveNamedRuns) {
  const analysis::Entry entry = ManyRuns("e", 500);
  const json curves = ToJson(EntryCurves(entry, entry.threshold, 1));
  ASSERT_TRUE(curves["band"].is_object());
  EXPECT_EQ(curves["band"]["runs"], 500);
  EXPECT_EQ(curves["band"]["rows"].size(), kBandTimes);
  // Fastest: run 0 (TTA 100), slowest reached: run 498 (598), median of the 400 that reached: the 200th by TTA,
  // run 248 (runs 4, 9, ... never reach); the first two that did not: runs 4 and 9.
  const json& drawn = curves["drawn"];
  ASSERT_EQ(drawn.size(), 5u);
  EXPECT_EQ(drawn[0]["index"], 0);
  EXPECT_EQ(drawn[0]["role"], "fastest");
  EXPECT_EQ(drawn[1]["index"], 248);
  EXPECT_EQ(drawn[1]["role"], "median");
  EXPECT_EQ(drawn[2]["index"], 498);
  EXPECT_EQ(drawn[3]["index"], 4);
  EXPECT_EQ(drawn[4]["index"], 9);
  EXPECT_EQ(drawn[4]["role"], "did not reach");
}

// Runs whose metric is flat at i / 100 from t = 1 to 10: at every time in between, the band's quantiles are those
// of 0, 0.01, ..., 0.99 (numpy's linear rule: q10 at position 9.9 = 0.099), and no run is training at t = 0.
TEST(RunCurvesTest, TheBandsQuantilesAreNumpysLinearOnesOverTheRunsStillTraining) {
  analysis::Entry entry;
  entry.name = "flat";
  entry.source = "jsonl";
  entry.threshold = 2;  // never reached
  for (int i = 0; i < 100; ++i) {
    analysis::Run run;
    run.index = i;
    run.status = analysis::RunStatus::kNotReached;
    for (int t = 1; t <= 10; ++t) run.points.push_back({static_cast<double>(t), i / 100.0});
    run.time_spent = 10;
    entry.runs.push_back(std::move(run));
  }
  const json band = ToJson(EntryCurves(entry, entry.threshold, 1))["band"];
  const json& rows = band["rows"];
  EXPECT_EQ(rows[0][1], 0);  // t = 0: no evaluation yet
  EXPECT_TRUE(rows[0][4].is_null());
  const json& middle = rows[kBandTimes / 2];  // t = 5
  EXPECT_DOUBLE_EQ(middle[0].get<double>(), 5);
  EXPECT_EQ(middle[1], 100);
  EXPECT_NEAR(middle[2].get<double>(), 0.099, 1e-12);
  EXPECT_NEAR(middle[3].get<double>(), 0.2475, 1e-12);
  EXPECT_NEAR(middle[4].get<double>(), 0.495, 1e-12);
  EXPECT_NEAR(middle[5].get<double>(), 0.7425, 1e-12);
  EXPECT_NEAR(middle[6].get<double>(), 0.891, 1e-12);
}

// The old model held every evaluation of every run: ten times the evaluations made report.json about seven times
// larger (3.6 MB against 0.5 MB here). Now only the five runs the chart draws keep their points in it: of what ten
// times the evaluations add to the points file (every run's), report.json gains at most the drawn runs' share.
TEST(ReportScaleTest, ReportSizeDoesNotGrowWithTheEvaluations) {
  StabilityReportInput coarse, fine;
  coarse.entries.push_back(ManyRuns("e", 200, 5));
  fine.entries.push_back(ManyRuns("e", 200, 0.5));
  const auto coarse_bytes = static_cast<double>(RenderJson(BuildStabilityReport(coarse)).size());
  const auto fine_bytes = static_cast<double>(RenderJson(BuildStabilityReport(fine)).size());
  const auto coarse_points = static_cast<double>(RunPointsJsonLines(coarse).size());
  const auto fine_points = static_cast<double>(RunPointsJsonLines(fine).size());
  EXPECT_GT(fine_points, 5 * coarse_points);
  // 5 of 200 runs drawn, their points pretty-printed (about 3x the compact side file's bytes): under 10%.
  EXPECT_LT(fine_bytes - coarse_bytes, 0.1 * (fine_points - coarse_points))
      << coarse_bytes << " bytes with 20 evaluations a run, " << fine_bytes << " with 200; the points file grew from "
      << coarse_points << " to " << fine_points;
}

// 2 x 500 runs: the charts draw bands and boxes, the runs tables list 50 runs each with a note.
TEST(ReportScaleTest, AReportOfThousandsOfRunsStaysSmall) {
  StabilityReportInput input;
  input.entries.push_back(ManyRuns("a", 500));
  input.entries.push_back(ManyRuns("b", 500));
  const ReportModel model_report = BuildStabilityReport(input);
  const json model = ToJson(model_report);
  const std::string html = RenderHtml(model_report);
  const std::string markdown = RenderMarkdown(model_report);
  EXPECT_LT(html.size(), 600u * 1000) << "HTML bytes";
  EXPECT_LT(markdown.size(), 200u * 1000) << "Markdown bytes";
  EXPECT_TRUE(testing::Contains(html, "The first 50 of 500 runs. report.json lists every run"));
  EXPECT_TRUE(testing::Contains(html, "quantiles of 500 runs and 5 of them"));
  EXPECT_TRUE(testing::Contains(html, "<rect class=\"box\""));
  EXPECT_TRUE(testing::Contains(html, "b: 100 runs did not reach the target"));
}

}  // namespace
}  // namespace evalsuite::reports
