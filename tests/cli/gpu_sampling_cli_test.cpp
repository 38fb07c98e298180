// `evalsuite study run --devices` and `evalsuite report` as a user runs them, with a fake nvidia-smi first on PATH
// (tests/study/fake_nvidia_smi.h; no GPU here): every run's peak GPU memory and mean utilization of its own devices
// land in the store and in the written report (JSON, Markdown, HTML).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/study/fake_nvidia_smi.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::ScopedEnv;
using testing::TempDir;
using testing::WriteFile;

TEST(GpuSamplingCliTest, StudyRunWithDevicesRecordsEachRunsGpusAndTheReportShowsThem) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  const fs::path bin = study::testing::WriteFakeGpuNode(dir.path());
  WriteFile(dir / "s.toml", R"(name = "gpu"
runs = 2
threshold = 0.85
devices_per_run = 2
gpu_sample_seconds = 0.05
entries = [ { name = "gpu-user", command = "sh {study_dir}/use_gpus.sh && sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
)");
  const std::string store = (dir / "gpu.db").string();
  ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--devices", "0,1,2,3", "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "none"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;

  // The store: one GPU record per run, with its own two devices; the peaks the fake GPUs reached while it ran.
  auto rows = testing::Query(store, "SELECT facts FROM run_execution");
  ASSERT_EQ(rows.size(), 2u);
  std::set<std::string> devices;
  for (const auto& row : rows) {
    const nlohmann::json execution = nlohmann::json::parse(row[0]);
    const nlohmann::json& gpu = execution["gpu"];
    ASSERT_EQ(gpu["sampled"], true) << execution.dump();
    ASSERT_EQ(gpu["devices"].size(), 2u) << gpu.dump();
    for (const nlohmann::json& d : gpu["devices"]) {
      const int index = std::stoi(d["index"].get<std::string>());
      devices.insert(d["index"]);
      EXPECT_NE(std::find(execution["devices"].begin(), execution["devices"].end(), d["index"]),
                execution["devices"].end());
      EXPECT_DOUBLE_EQ(d["peak_memory_used_mib"].get<double>(), 1000 * (index + 1) + 500) << d.dump();
    }
  }
  EXPECT_EQ(devices, std::set<std::string>({"0", "1", "2", "3"}));

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  const nlohmann::json model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  const nlohmann::json& gpu = model["cost"]["entries"][0]["gpu"];
  ASSERT_EQ(gpu["devices"].size(), 4u) << gpu.dump();
  EXPECT_DOUBLE_EQ(gpu["devices"][1]["peak_memory_used_mib"].get<double>(), 2500);
  EXPECT_DOUBLE_EQ(gpu["devices"][1]["mean_utilization_percent"].get<double>(), 20);
  EXPECT_TRUE(gpu["devices"][3]["mean_utilization_percent"].is_null());  // the fake's [N/A]
  const std::string markdown = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(markdown.find("| gpu-user | 1 GPU-0001 | 1 of 2 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| 0.05 | 2500 | 16384 | 20.0 |"), std::string::npos) << markdown;
  EXPECT_NE(ReadFile(dir / "report" / "report.html").find("GPU-0003"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite
