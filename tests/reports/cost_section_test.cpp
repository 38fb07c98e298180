// The report's cost section: per entry, the measured runs' wall and CPU time and peak RSS, and DAWNBench's cost to
// reach the target from the plan's cost_per_hour. Expected values are worked by hand in the comments.
#include "reports/cost_section.h"

#include <gtest/gtest.h>

#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {

StabilityReportInput CostInput() {
  StabilityReportInput input;
  analysis::Entry measured;
  measured.name = "measured";
  measured.threshold = 0.9;
  // TTA 100 and 120 s: median 110 s.
  measured.runs = {testing::ReachingRun(0, 100), testing::ReachingRun(1, 120)};
  measured.runs[0].usage = analysis::RunUsage{130, 90, 10, 1024};   // CPU 100 s, 1 MB
  measured.runs[1].usage = analysis::RunUsage{150, 150, 20, 3072};  // CPU 170 s, 3 MB
  analysis::Entry imported;                                         // no usage: not in the section
  imported.name = "imported";
  imported.threshold = 0.9;
  imported.runs = {testing::ReachingRun(0, 90)};
  input.entries = {measured, imported};
  input.cost_per_hour = 3.6;
  return input;
}

TEST(CostSectionTest, MachineTimeAndDawnbenchCostPerEntry) {
  const ReportModel model_report = BuildStabilityReport(CostInput());
  nlohmann::json model = ToJson(model_report);
  const nlohmann::json& cost = model[kCostSectionKey];
  ASSERT_TRUE(cost.is_object());
  EXPECT_EQ(cost["cost_per_hour"], 3.6);
  ASSERT_EQ(cost["entries"].size(), 1u);
  const nlohmann::json& row = cost["entries"][0];
  EXPECT_EQ(row["entry"], "measured");
  EXPECT_EQ(row["runs_measured"], 2);
  EXPECT_DOUBLE_EQ(row["wall_seconds_total"].get<double>(), 280);  // 130 + 150
  EXPECT_DOUBLE_EQ(row["wall_seconds_per_run"].get<double>(), 140);
  EXPECT_DOUBLE_EQ(row["cpu_seconds_total"].get<double>(), 270);  // 90 + 10 + 150 + 20
  EXPECT_DOUBLE_EQ(row["cpu_seconds_per_run"].get<double>(), 135);
  EXPECT_DOUBLE_EQ(row["peak_rss_mb"].get<double>(), 3);          // the larger run's 3072 kB
  EXPECT_NEAR(row["cost_total"].get<double>(), 0.28, 1e-12);      // 280 s = 0.0778 h x 3.6
  EXPECT_NEAR(row["cost_to_target"].get<double>(), 0.11, 1e-12);  // median TTA 110 s x 3.6 / 3600
  // ERT x price: both runs reached, ERT = (100 + 120) / 2 = 110 s.
  EXPECT_NEAR(row["cost_per_success"].get<double>(), 0.11, 1e-12);
  const std::string markdown = RenderMarkdown(model_report);
  EXPECT_NE(markdown.find("## What the runs cost"), std::string::npos);
  EXPECT_NE(markdown.find("| measured"), std::string::npos);
  EXPECT_NE(RenderHtml(model_report).find("<h3>What the runs cost</h3>"), std::string::npos);
}

TEST(CostSectionTest, NoPriceGivesNoMoneyAndNoUsageNoSection) {
  StabilityReportInput input = CostInput();
  input.cost_per_hour.reset();
  const ReportModel model_report = BuildStabilityReport(input);
  nlohmann::json model = ToJson(model_report);
  EXPECT_TRUE(model[kCostSectionKey]["cost_per_hour"].is_null());
  EXPECT_TRUE(model[kCostSectionKey]["entries"][0]["cost_to_target"].is_null());
  EXPECT_DOUBLE_EQ(model[kCostSectionKey]["entries"][0]["wall_seconds_total"].get<double>(), 280);
  for (analysis::Entry& e : input.entries) {
    for (analysis::Run& r : e.runs) r.usage.reset();
  }
  EXPECT_FALSE(ToJson(BuildStabilityReport(input)).contains(kCostSectionKey));
  EXPECT_EQ(RenderMarkdown(BuildStabilityReport(input)).find("What the runs cost"), std::string::npos);
}

// GPU figures over an entry's runs: the peak is the largest run peak, the mean utilization the mean of all samples
// (each run's mean weighted by its utilization samples); a run without nvidia-smi is counted as not sampled.
TEST(CostSectionTest, GpuUsePerDeviceOverTheEntrysRuns) {
  StabilityReportInput input = CostInput();
  input.entries[0].runs.push_back(testing::ReachingRun(2, 110));
  input.entries[0].runs[2].usage = analysis::RunUsage{140, 100, 10, 2048};
  analysis::RunGpuUse first{true, "", 1,
                            4,    0,  {{"0", "GPU-a", 4, 16384, 1000, 40, 3}}};  // 3 samples at mean 40: sum 120
  analysis::RunGpuUse second{true, "", 1, 2, 1, {{"0", "GPU-a", 2, 16384, 3000, 80, 1}}};  // 1 sample at 80
  input.entries[0].runs[0].gpu = first;
  input.entries[0].runs[1].gpu = second;
  input.entries[0].runs[2].gpu = analysis::RunGpuUse{false, "nvidia-smi not found on PATH", 0, 0, 0, {}};
  analysis::Entry cpu_only;  // measured, never GPU-sampled: its row says so instead of showing zeros
  cpu_only.name = "cpu-only";
  cpu_only.threshold = 0.9;
  cpu_only.runs = {testing::ReachingRun(0, 50)};
  cpu_only.runs[0].usage = analysis::RunUsage{60, 50, 5, 1024};
  cpu_only.runs[0].gpu = analysis::RunGpuUse{false, "nvidia-smi not found on PATH", 0, 0, 0, {}};
  input.entries.push_back(cpu_only);
  const ReportModel model_report = BuildStabilityReport(input);
  nlohmann::json model = ToJson(model_report);
  const nlohmann::json& gpu = model[kCostSectionKey]["entries"][0]["gpu"];
  EXPECT_EQ(gpu["runs_sampled"], 2);
  EXPECT_EQ(gpu["runs_not_sampled"], 1);
  EXPECT_EQ(gpu["samples"], 6);
  EXPECT_EQ(gpu["failed_samples"], 1);
  ASSERT_EQ(gpu["devices"].size(), 1u);
  EXPECT_EQ(gpu["devices"][0]["runs"], 2);
  EXPECT_DOUBLE_EQ(gpu["devices"][0]["peak_memory_used_mib"].get<double>(), 3000);
  EXPECT_DOUBLE_EQ(gpu["devices"][0]["mean_utilization_percent"].get<double>(), 50);  // (120 + 80) / 4
  EXPECT_EQ(gpu["runs"].size(), 2u);
  const std::string markdown = RenderMarkdown(model_report);
  EXPECT_NE(markdown.find("| measured | 0 GPU-a | 2 of 3 | 6 | 1 | 3000 | 16384 | 50.0 |"), std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| cpu-only | not sampled (nvidia-smi not found on PATH) | 0 of 1 | — | — | — | — | — |"),
            std::string::npos)
      << markdown;
  // The imported entry has no usage, so no cost row and no GPU row; no run anywhere sampled: one line says so.
  input.entries.pop_back();
  for (analysis::Run& run : input.entries[0].runs)
    run.gpu = analysis::RunGpuUse{false, "nvidia-smi not found on PATH", 0, 0, 0, {}};
  const std::string unsampled = RenderMarkdown(BuildStabilityReport(input));
  EXPECT_NE(unsampled.find("GPU: not sampled (nvidia-smi not found on PATH)."), std::string::npos) << unsampled;
  EXPECT_EQ(unsampled.find("mean utilization"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
