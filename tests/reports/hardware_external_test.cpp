// An external entry in the hardware section (study/hardware/external_hardware.h makes it): a row with its
// peak and where the peak came from, its device's roof in the roofline chart, and a section of external entries alone
// (no `evalsuite machine` file) rendered without the machine, time and memory tables it has no data for.
#include <gtest/gtest.h>

#include "reports/given_sections.h"
#include "reports/hardware_section.h"
#include "reports/report.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

json ExternalOnly() {
  return json::parse(R"J({"entries": [
    {"entry": "ext", "source": "external", "figures_source": "declared by the log", "device": "NVIDIA A100-SXM4-80GB",
     "device_count": 1, "precision": "bf16", "batch_size": 256, "flops_per_sample": 6e9, "bytes_per_sample": 2e8,
     "intensity": 30, "samples_per_second": 2000, "achieved_flops": 1.2e13, "mfu": 0.0384615, "peak_flops": 312e12,
     "peak_bandwidth": 2039e9, "peak_source": "table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB, bf16)",
     "bound": "overhead-bound", "evidence": "intensity 30.0 FLOP/byte is left of the ridge (153.0)"}]})J");
}

TEST(HardwareExternal, ARowWithItsPeakSource) {
  const json s = ExternalOnly();
  ASSERT_TRUE(HasHardwareSection(s));
  EXPECT_TRUE(HardwareMachineTable(ParseHardwareSection(s)).rows.empty());
  EXPECT_TRUE(HardwareTimeTable(ParseHardwareSection(s)).rows.empty());
  EXPECT_TRUE(HardwareMemoryTable(ParseHardwareSection(s)).rows.empty());
  const ReportTable t = HardwareEntriesTable(ParseHardwareSection(s));
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][4], "6000.000");  // MFLOP per sample
  EXPECT_EQ(t.rows[0][6], "30.00");     // FLOP/byte
  EXPECT_EQ(t.rows[0][7], "2000");      // samples/s
  EXPECT_EQ(t.rows[0][8], "12000.00");  // GFLOP/s
  EXPECT_EQ(t.rows[0][9], "3.85%");     // MFU
  EXPECT_EQ(t.rows[0][11], "312000.00 GFLOP/s (table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB, bf16))");
  const std::vector<std::string> sentences = HardwareBottleneckSentences(ParseHardwareSection(s));
  ASSERT_EQ(sentences.size(), 1u);
  EXPECT_EQ(sentences[0], "ext is overhead-bound: intensity 30.0 FLOP/byte is left of the ridge (153.0) (MFU 3.85%).");
}

TEST(HardwareExternal, TheDeviceRoofIsDrawnWithTheDot) {
  const std::string svg = RooflineChart(ParseHardwareSection(ExternalOnly()));
  EXPECT_NE(svg.find("NVIDIA A100-SXM4-80GB roof 312000.00 GFLOP/s, 2039.00 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("ext: 30.00 FLOP/byte, 12000.00 GFLOP/s, MFU 3.85%"), std::string::npos);
}

TEST(HardwareExternal, RenderedWithoutTheTablesItHasNoDataFor) {
  StabilityReportInput input;
  input.hardware_given = ExternalOnly();
  DecodeHardwareSection(input);
  const ReportModel model_report = BuildStabilityReport(input);
  const json model = ToJson(model_report);
  const std::string md = RenderMarkdown(model_report);
  EXPECT_NE(md.find("## Hardware: why TTA is what it is"), std::string::npos);
  EXPECT_NE(md.find("table: NVIDIA A100 datasheet"), std::string::npos);
  EXPECT_EQ(md.find("Memory breakdown"), std::string::npos);
  EXPECT_EQ(md.find("| Ceiling"), std::string::npos);
  const std::string html = RenderHtml(model_report);
  EXPECT_NE(html.find("data-chart=\"roofline\""), std::string::npos);
  EXPECT_EQ(html.find("Time breakdown"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
