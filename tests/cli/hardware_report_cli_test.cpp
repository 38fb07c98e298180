// Issue 17 as a user runs it: an external run log declaring its FLOPs is imported (its bad declaration warned with
// file, line and field, exit 3), and `evalsuite report --section hardware=F` shows it beside the built-in entries of
// `evalsuite machine`'s file, each with where its peak came from.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

TEST(HardwareReportCliTest, ExternalEntryJoinsTheMachineFilesEntries) {
  TempDir dir;
  // 4 epochs x 50,000 samples in 100 s of training: 2,000 samples/s, 1.2e13 FLOP/s, MFU 1.2e13 / 312e12 (A100 bf16).
  WriteFile(
      dir / "logs" / "gpu.jsonl",
      "{\"type\":\"header\",\"entry\":\"gpu\",\"threshold\":0.9,\"flops_per_sample\":6e9,\"bytes_per_sample\":2e8,"
      "\"samples_per_epoch\":50000,\"device\":\"NVIDIA A100-SXM4-80GB\",\"precision\":\"bf16\","
      "\"peak_bandwidth\":-1}\n"
      "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":50,\"wall_seconds\":55,\"metric\":0.8}\n"
      "{\"type\":\"eval\",\"epoch\":4,\"train_seconds\":100,\"wall_seconds\":110,\"metric\":0.92}\n"
      "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":100,\"wall_seconds\":110}\n");
  const auto imported =
      RunEvalsuite({"import", (dir / "logs" / "gpu.jsonl").string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(imported.exit_code, 3) << imported.err;
  EXPECT_NE(imported.err.find("gpu.jsonl:1: header field \"peak_bandwidth\" must be a finite number above 0, got -1"),
            std::string::npos)
      << imported.err;
  WriteFile(dir / "hw.json", R"({"machine": {"cpu_model": "cpu", "peak_fp32_flops": 1e11, "bandwidth_bytes": 1e10},
    "entries": [{"entry": "baseline", "precision": "fp32", "flops_per_sample": 7.47e6, "intensity": 5.8,
                 "samples_per_second": 4000, "achieved_flops": 2.99e10, "mfu": 0.299, "bound": "memory-bound"}]})");
  const auto report = RunEvalsuite({"report", (dir / "s.db").string(), "--out", (dir / "rep").string(), "--section",
                                    "hardware=" + (dir / "hw.json").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const nlohmann::json model = nlohmann::json::parse(ReadFile(dir / "rep" / "report.json"));
  const nlohmann::json& entries = model["hardware"]["entries"];
  ASSERT_EQ(entries.size(), 2u) << entries.dump();
  EXPECT_EQ(entries[0]["entry"], "baseline");
  EXPECT_EQ(entries[1]["entry"], "gpu");
  EXPECT_DOUBLE_EQ(entries[1]["samples_per_second"].get<double>(), 2000.0);
  EXPECT_NEAR(entries[1]["mfu"].get<double>(), 1.2e13 / 312e12, 1e-15);
  EXPECT_TRUE(entries[1]["intensity"] == 30.0);
  // The bandwidth came from the table after the declared one was refused; the bound follows from it.
  EXPECT_DOUBLE_EQ(entries[1]["peak_bandwidth"].get<double>(), 2039e9);
  const std::string md = ReadFile(dir / "rep" / "report.md");
  EXPECT_NE(md.find("| measured on this machine |"), std::string::npos) << md;
  EXPECT_NE(md.find("312000.00 GFLOP/s (table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB, bf16))"),
            std::string::npos);
}

}  // namespace
}  // namespace evalsuite
