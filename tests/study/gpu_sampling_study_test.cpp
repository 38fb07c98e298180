// GPU sampling in real studies of small runs, with a fake nvidia-smi first on PATH (tests/study/fake_nvidia_smi.h):
// local runs with device slots record the peak memory and mean utilization of their own devices only, and the
// report's cost section shows them; without nvidia-smi the report says "not sampled", not zero; a Slurm array task
// samples its node's GPUs (Slurm's CUDA_VISIBLE_DEVICES) into its end record, which the coordinator ingests.
#include <gtest/gtest.h>

#include <filesystem>

#include "reports/report.h"
#include "study/execution/json_record_file.h"
#include "study/execution/run_execution.h"
#include "study/execution/slurm_task.h"
#include "study/study_runner.h"
#include "study/study_summary.h"
#include "tests/study/fake_entries.h"
#include "tests/study/fake_nvidia_smi.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::ScopedEnv;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

StudyRunOptions FastPollOptions(const TempDir& dir) {
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  options.scheduler.poll_seconds = 0.01;
  return options;
}

std::vector<store::RunRecord> Runs(const fs::path& store_file, const std::string& study) {
  auto store = store::RunStore::Open(store_file, false);
  return store->LoadRuns(store->FindStudy(study)->id);
}

reports::ReportModel StoredStudyReport(const fs::path& store_file, const std::string& study) {
  auto store = store::RunStore::OpenForReading(store_file);
  return reports::BuildStabilityReport(BuildReportInput(*store, {*store->FindStudy(study)}));
}

// Each run, while it runs, raises the memory of its own GPUs by 500 MiB for 0.6 s (fake_nvidia_smi.h), 12 sampling
// intervals: peak 1000 (d + 1) + 500 MiB on GPU d, utilization unchanged (mean 10 (d + 1) %, GPU 3's [N/A]).
constexpr const char* kGpuStudy = R"(
name = "gpus"
runs = 2
threshold = 0.85
devices = [0, 1, 2, 3]
devices_per_run = 2
gpu_sample_seconds = 0.05
entries = [ { name = "gpu-user", command = "sh {study_dir}/use_gpus.sh && sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
)";

TEST(GpuSamplingStudyTest, EachRunRecordsItsOwnDevicesPeakAndMeanAndTheReportShowsThem) {
  TempDir dir;
  const fs::path bin = testing::WriteFakeGpuNode(dir.path());
  ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
  StudyPlan plan = testing::FakeStudyPlan(dir, kGpuStudy);
  ASSERT_EQ(plan.jobs, 2);
  RunStudy(plan, FastPollOptions(dir));

  std::vector<store::RunRecord> runs = Runs(dir / "store.db", "gpus");
  ASSERT_EQ(runs.size(), 2u);
  std::set<std::string> seen;
  for (const store::RunRecord& run : runs) {
    const nlohmann::json& gpu = run.execution["gpu"];
    ASSERT_EQ(gpu["sampled"], true) << gpu.dump();
    EXPECT_EQ(gpu["failed_samples"], 0) << gpu.dump();
    EXPECT_TRUE(gpu["warnings"].empty()) << gpu.dump();
    EXPECT_EQ(gpu["devices_requested"], run.execution["devices"]);
    ASSERT_EQ(gpu["devices"].size(), 2u) << gpu.dump();  // its own two, not the other run's
    for (const nlohmann::json& device : gpu["devices"]) {
      const int d = std::stoi(device["index"].get<std::string>());
      seen.insert(device["index"]);
      EXPECT_EQ(device["uuid"], "GPU-000" + std::to_string(d));
      // Sampled more than once while the run ran (0.8 s at 0.05 s intervals: ~16 on a quiet machine; each call
      // starts a shell script, so a loaded machine under the sanitizers managed 4): the peak below is the real check.
      EXPECT_GE(device["samples"].get<int>(), 2) << device.dump();
      EXPECT_DOUBLE_EQ(device["peak_memory_used_mib"].get<double>(), 1000 * (d + 1) + 500) << device.dump();
      EXPECT_DOUBLE_EQ(device["memory_total_mib"].get<double>(), 16384);
      if (d == 3) {
        EXPECT_TRUE(device["mean_utilization_percent"].is_null()) << device.dump();
        EXPECT_EQ(device["utilization_samples"], 0);
      } else {
        EXPECT_DOUBLE_EQ(device["mean_utilization_percent"].get<double>(), 10 * (d + 1)) << device.dump();
      }
    }
  }
  EXPECT_EQ(seen, std::set<std::string>({"0", "1", "2", "3"}));

  const reports::ReportModel report = StoredStudyReport(dir / "store.db", "gpus");
  const nlohmann::json model = reports::ToJson(report);
  const nlohmann::json& gpu = model["cost"]["entries"][0]["gpu"];
  EXPECT_EQ(gpu["runs_sampled"], 2);
  EXPECT_EQ(gpu["runs_not_sampled"], 0);
  ASSERT_EQ(gpu["devices"].size(), 4u) << gpu.dump();
  EXPECT_DOUBLE_EQ(gpu["devices"][2]["peak_memory_used_mib"].get<double>(), 3500);
  EXPECT_DOUBLE_EQ(gpu["devices"][2]["mean_utilization_percent"].get<double>(), 30);
  EXPECT_EQ(gpu["runs"].size(), 2u);
  const std::string markdown = reports::RenderMarkdown(report);
  EXPECT_NE(markdown.find("| every (s) | peak memory (MiB) | of total (MiB) | mean utilization (%) |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| gpu-user | 0 GPU-0000 | 1 of 2 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| 0.05 | 1500 | 16384 | 10.0 |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| 4500 | 16384 | — |"), std::string::npos) << markdown;  // [N/A] utilization
  EXPECT_NE(reports::RenderHtml(report).find("GPU-0002"), std::string::npos);
}

TEST(GpuSamplingStudyTest, WithoutNvidiaSmiTheReportSaysNotSampledNotZero) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  StudyPlan plan = testing::FakeStudyPlan(dir, R"(
name = "cpu"
runs = 1
threshold = 0.85
entries = [ { name = "fake", command = "/bin/sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
)");
  {
    ScopedEnv path("PATH", (dir / "empty").string());  // the command names /bin/sh itself
    RunStudy(plan, FastPollOptions(dir));
  }
  std::vector<store::RunRecord> runs = Runs(dir / "store.db", "cpu");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kReached);  // the run's own results are all there
  EXPECT_EQ(runs[0].execution["gpu"], nlohmann::json({{"sampled", false}, {"reason", "nvidia-smi not found on PATH"}}));
  const reports::ReportModel report = StoredStudyReport(dir / "store.db", "cpu");
  const nlohmann::json model = reports::ToJson(report);
  EXPECT_EQ(model["cost"]["entries"][0]["gpu"]["runs_not_sampled"], 1);
  EXPECT_TRUE(model["cost"]["entries"][0]["gpu"]["devices"].empty());
  const std::string markdown = reports::RenderMarkdown(report);
  EXPECT_NE(markdown.find("GPU: not sampled (nvidia-smi not found on PATH)."), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("mean utilization"), std::string::npos);
}

// The array task runs under Slurm's CUDA_VISIBLE_DEVICES=1 on a node with four GPUs: its end record holds GPU 1's
// figures only, and the coordinator stores them with the run as it stores a local run's.
TEST(GpuSamplingStudyTest, SlurmTaskSamplesItsNodesGpusIntoItsEndRecordAndTheCoordinatorIngestsThem) {
  TempDir dir;
  const fs::path bin = testing::WriteFakeGpuNode(dir.path());
  WriteFile(bin / "squeue", "#!/bin/sh\nexit 0\n");  // the array has left the queue
  WriteFile(bin / "sbatch", "#!/bin/sh\necho 'sbatch must not be called: nothing is missing' >&2\nexit 1\n");
  for (const char* tool : {"squeue", "sbatch"}) fs::permissions(bin / tool, fs::perms::owner_all);
  ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
  StudyPlan plan = testing::FakeStudyPlan(dir, R"(
name = "sl"
runs = 1
threshold = 0.85
executor = "slurm"
gpu_sample_seconds = 0.05
entries = [ { name = "gpu-user", command = "sh {study_dir}/use_gpus.sh && sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
[slurm]
poll_seconds = 0.05
)");
  const fs::path run_dir = RunDirFor(plan, "gpu-user", 0);
  ArrayManifest manifest;
  manifest.sequence = 1;
  manifest.job_id = "700";
  manifest.plan = PlanToJson(plan);
  manifest.tasks = {{plan.schedule[0], run_dir}};
  fs::create_directories(SlurmDir(plan));
  WriteManifest(ManifestPath(plan, 1), manifest);
  {
    ScopedEnv job("SLURM_JOB_ID", "700"), array("SLURM_ARRAY_JOB_ID", "700"), task("SLURM_ARRAY_TASK_ID", "0"),
        node("SLURMD_NODENAME", "gpu-03"), visible("CUDA_VISIBLE_DEVICES", "1");
    ASSERT_EQ(RunSlurmTask(ManifestPath(plan, 1), 0, "/unused"), 0);
  }
  const std::optional<nlohmann::json> end = ReadJsonFile(run_dir / kTaskEndFile);
  ASSERT_TRUE(end);
  const nlohmann::json& gpu = (*end)["gpu"];
  ASSERT_EQ(gpu["sampled"], true) << end->dump();
  ASSERT_EQ(gpu["devices"].size(), 1u) << gpu.dump();
  EXPECT_EQ(gpu["devices"][0]["index"], "1");
  EXPECT_DOUBLE_EQ(gpu["devices"][0]["peak_memory_used_mib"].get<double>(), 2500);
  EXPECT_DOUBLE_EQ(gpu["devices"][0]["mean_utilization_percent"].get<double>(), 20);

  StudyRunOptions options;
  options.store_file = dir / "s.db";
  StudyOutcome outcome = RunStudy(plan, options);
  EXPECT_EQ(outcome.ingested_on_resume, 1);
  std::vector<store::RunRecord> runs = Runs(options.store_file, "sl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].execution["executor"], "slurm");
  EXPECT_EQ(runs[0].execution["gpu"], gpu);
  EXPECT_NE(
      reports::RenderMarkdown(StoredStudyReport(options.store_file, "sl")).find("| gpu-user | 1 GPU-0001 | 1 of 1 |"),
      std::string::npos);
}

}  // namespace
}  // namespace evalsuite::study
