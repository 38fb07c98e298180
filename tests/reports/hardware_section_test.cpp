// The hardware section's rendering: tables with one row per entry phase, a bottleneck sentence per entry, the
// roofline chart with a dot per phase, and both renderers showing the section when the model carries it.
#include "reports/hardware_section.h"

#include <gtest/gtest.h>

#include "reports/given_sections.h"
#include "reports/report.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

json Section() {
  return json::parse(R"({
    "machine": {"cpu_model": "AMD EPYC", "cores": 2, "threads": 2, "peak_fp32_flops": 100e9, "peak_bf16_flops": 200e9,
                "bandwidth_bytes": 10e9, "ridge_fp32": 10,
                "theoretical": {"derived": true, "fp32_flops_per_second": 332e9, "bf16_flops_per_second": 664e9,
                                "derivation": "2 cores x ..."},
                "probes": [{"name": "conv_fp32", "shape": "s", "unit": "FLOP/s", "best": 100e9, "median": 90e9},
                           {"name": "triad_fp32", "shape": "t", "unit": "bytes/s", "best": 10e9, "median": 9e9}]},
    "entries": [
      {"entry": "baseline", "precision": "fp32", "batch_size": 128, "flops_per_sample": 7.47e6,
       "bytes_per_sample": 1.28e6, "intensity": 5.84, "samples_per_second": 4000, "achieved_flops": 29.9e9,
       "mfu": 0.299, "bound": "memory-bound", "evidence": "intensity 5.8 FLOP/byte is left of the ridge",
       "phases": [{"side": 28, "flops_per_sample": 7.47e6, "bytes_per_sample": 1.28e6, "intensity": 5.84,
                   "samples_per_second": 4000, "achieved_flops": 29.9e9, "mfu": 0.299, "bound": "memory-bound"}],
       "time": {"data": 1, "forward": 3, "backward": 4, "optimizer": 1, "evaluation": 1, "idle": 0, "wall": 10},
       "full_run_estimate": {"evaluation_share": 0.05},
       "memory": {"parameters": 1048576, "gradients": 1048576, "optimizer_state": 1048576, "activations": 2097152,
                  "temporaries": 0, "input_batch": 0, "dataset": 0, "steady": 3145728, "peak": 5242880,
                  "peak_rss": 10485760}},
      {"entry": "progressive-resize", "precision": "fp32", "batch_size": 128, "flops_per_sample": 5e6,
       "intensity": 5, "achieved_flops": 10e9, "mfu": 0.1, "bound": "overhead-bound", "evidence": "e",
       "phases": [{"side": 14, "intensity": 7.6, "achieved_flops": 5e9, "mfu": 0.05},
                  {"side": 28, "intensity": 5.84, "achieved_flops": 20e9, "mfu": 0.2}],
       "time": {"wall": 0}, "memory": {}}]
  })");
}

TEST(HardwareSection, TablesHaveARowPerPhase) {
  const json s = Section();
  ASSERT_TRUE(HasHardwareSection(s));
  EXPECT_FALSE(HasHardwareSection(json::object()));
  const ReportTable entries = HardwareEntriesTable(ParseHardwareSection(s));
  ASSERT_EQ(entries.rows.size(), 3u);
  EXPECT_EQ(entries.rows[0][0], "baseline");
  EXPECT_EQ(entries.rows[0][4], "7.470");  // MFLOP per sample
  EXPECT_EQ(entries.rows[0][8], "29.90");  // GFLOP/s
  EXPECT_EQ(entries.rows[0][9], "29.9%");  // MFU
  EXPECT_EQ(entries.rows[1][1], "14");
  const ReportTable time = HardwareTimeTable(ParseHardwareSection(s));
  EXPECT_EQ(time.rows[0][2], "30.0%");  // forward 3 of 10 s
  EXPECT_EQ(time.rows[0][7], "5.00%");
  EXPECT_EQ(time.rows[1][1], "—");  // no wall time: no shares
  const ReportTable memory = HardwareMemoryTable(ParseHardwareSection(s));
  EXPECT_EQ(memory.rows[0][1], "1.00");  // MiB
  EXPECT_EQ(memory.rows[0][10], "10.00");
  const ReportTable machine = HardwareMachineTable(ParseHardwareSection(s));
  EXPECT_EQ(machine.rows[0][1], "100.00 GFLOP/s");
  EXPECT_EQ(machine.rows[1][1], "10.00 GB/s");
}

// How busy the machine was as the probe started is shown with the ceilings, and a caution when other work shared
// its cores (an MFU against a peak measured under load is too high).
TEST(HardwareSection, HowBusyTheMachineWasAsTheCeilingsWereMeasuredIsShown) {
  auto load_row = [](const ReportTable& t) -> std::vector<std::string> {
    for (const auto& row : t.rows) {
      if (row[0] == "other work as measured") return row;
    }
    return {};
  };
  json s = Section();
  EXPECT_TRUE(load_row(HardwareMachineTable(ParseHardwareSection(s))).empty()) << "nothing recorded: no row";
  s["machine"]["busy_cores_before"] = 0.12;
  s["machine"]["load_average_1m"] = 1.31;
  s["machine"]["load_note"] = nullptr;
  std::vector<std::string> quiet = load_row(HardwareMachineTable(ParseHardwareSection(s)));
  ASSERT_EQ(quiet.size(), 3u);
  EXPECT_EQ(quiet[1], "0.12 cores busy (load 1.31)");
  EXPECT_NE(quiet[2].find("its cores were free"), std::string::npos) << quiet[2];
  s["machine"]["busy_cores_before"] = 1.8;
  s["machine"]["load_note"] = "other processes kept 1.80 of 2 cores busy just before the probe";
  std::vector<std::string> busy = load_row(HardwareMachineTable(ParseHardwareSection(s)));
  ASSERT_EQ(busy.size(), 3u);
  EXPECT_EQ(busy[2].rfind("CAUTION: other processes kept 1.80 of 2 cores busy", 0), 0u) << busy[2];
}

TEST(HardwareSection, OneSentencePerEntryNamesTheBound) {
  const std::vector<std::string> sentences = HardwareBottleneckSentences(ParseHardwareSection(Section()));
  ASSERT_EQ(sentences.size(), 2u);
  EXPECT_EQ(sentences[0].rfind("baseline is memory-bound: intensity 5.8", 0), 0u) << sentences[0];
  EXPECT_NE(sentences[0].find("MFU 29.9%"), std::string::npos);
  EXPECT_NE(sentences[0].find("data 11.1%"), std::string::npos) << sentences[0];  // 1 of 9 stepped seconds
  EXPECT_EQ(sentences[1].rfind("progressive-resize is overhead-bound", 0), 0u);
}

TEST(HardwareSection, RooflineHasADotPerPhaseAndBothRoofs) {
  const std::string svg = RooflineChart(ParseHardwareSection(Section()));
  EXPECT_NE(svg.find("data-chart=\"roofline\""), std::string::npos);
  size_t dots = 0;
  for (size_t at = svg.find("r=\"5\""); at != std::string::npos; at = svg.find("r=\"5\"", at + 1)) ++dots;
  EXPECT_EQ(dots, 3u);
  EXPECT_NE(svg.find("progressive-resize 14x14"), std::string::npos);
  EXPECT_NE(svg.find("fp32 roof 100.00 GFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("bf16 roof 200.00 GFLOP/s"), std::string::npos);
}

TEST(HardwareSection, RenderersShowTheSection) {
  StabilityReportInput input;
  input.hardware_given = Section();
  DecodeHardwareSection(input);
  const ReportModel model_report = BuildStabilityReport(input);
  const json model = ToJson(model_report);
  EXPECT_NE(RenderMarkdown(model_report).find("## Hardware: why TTA is what it is"), std::string::npos);
  const std::string html = RenderHtml(model_report);
  EXPECT_NE(html.find("<section id=\"hardware\">"), std::string::npos);
  EXPECT_NE(html.find("href=\"#hardware\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"roofline\""), std::string::npos);
  EXPECT_EQ(RenderMarkdown(BuildStabilityReport(StabilityReportInput{})).find("Hardware"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
