// GPU sampling with a fake nvidia-smi (tests/study/fake_nvidia_smi.h; no GPU here): the peak memory and mean
// utilization per device of what it printed, the run's own devices only, and every way nvidia-smi can misbehave
// ("[N/A]", garbage lines, a non-zero exit, a hang, absent) ending as counts and warnings, never as an error.
#include "study/hardware/gpu_sampler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/study/fake_nvidia_smi.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::ReadFile;
using evalsuite::testing::ScopedEnv;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

TEST(GpuQueryLineTest, ReadsRowsAndPlaceholdersAndRefusesGarbage) {
  std::string why;
  std::optional<GpuReading> row = ParseGpuQueryLine("0, GPU-1a2b, 1234, 16384, 56", &why);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->index, "0");
  EXPECT_EQ(row->uuid, "GPU-1a2b");
  EXPECT_EQ(row->memory_used_mib, 1234);
  EXPECT_EQ(row->memory_total_mib, 16384);
  EXPECT_EQ(row->utilization_percent, 56);
  row = ParseGpuQueryLine("3, GPU-ff, [N/A], 8192, [Not Supported]", &why);
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->memory_used_mib);
  EXPECT_EQ(row->memory_total_mib, 8192);
  EXPECT_FALSE(row->utilization_percent);
  for (const char* garbage : {"No devices were found", "WARNING: infoROM is corrupted at gpu 0000:01:00.0",
                              "0, GPU-1, 12 MiB, 100, 5", "x, GPU-1, 1, 2, 3", "0, GPU-1, 1, 2, 300", "0, , 1, 2, 3",
                              "0, GPU-1, 1, 2, 3, 4", "0, GPU-1, -5, 2, 3", "\xff\xfe, GPU-1, 1, 2, 3"}) {
    EXPECT_FALSE(ParseGpuQueryLine(garbage, &why)) << garbage;
    EXPECT_FALSE(why.empty());
  }
}

// Drives the sampler as the scheduler does, until it has `samples` answers (or 10 s passed).
nlohmann::json SampleUntil(GpuSampler& sampler, int samples, double max_seconds = 10) {
  const auto start = std::chrono::steady_clock::now();
  while (sampler.samples() < samples &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < max_seconds) {
    sampler.Poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return sampler.Finish();
}

struct FakeGpus {
  explicit FakeGpus(const TempDir& dir)
      : bin(dir / "fakebin"), path("PATH", (dir / "fakebin").string() + ":/usr/bin:/bin") {
    testing::WriteFakeNvidiaSmi(bin);
  }
  void Answer(int n, const std::string& text, int status = 0) {
    WriteFile(bin / ("answer-" + std::to_string(n)), text);
    if (status != 0) WriteFile(bin / ("status-" + std::to_string(n)), std::to_string(status));
  }
  fs::path bin;
  ScopedEnv path;
};

GpuSamplerOptions Fast(std::vector<std::string> devices = {}) {
  GpuSamplerOptions options;
  options.interval_seconds = 0.02;
  options.devices = std::move(devices);
  return options;
}

// Four answers for two GPUs (the fifth call hangs until the sampler is finished, so exactly four count):
//   GPU 0 used 1000, 3000, 2500, 500 MiB -> peak 3000; utilization 10, 90, 50, [N/A] -> mean 150 / 3 = 50
//   GPU 1 used 200, 200, 4000, [Not Supported] -> peak 4000; utilization 0, 0, 0, 100 -> mean 100 / 4 = 25
void WriteFourAnswers(FakeGpus& gpus) {
  gpus.Answer(1, "0, GPU-aaaa, 1000, 16384, 10\n1, GPU-bbbb, 200, 8192, 0\n");
  gpus.Answer(2,
              "WARNING: infoROM is corrupted at gpu 0000:01:00.0\n0, GPU-aaaa, 3000, 16384, 90\n"
              "1, GPU-bbbb, 200, 8192, 0\n");
  gpus.Answer(3, "0, GPU-aaaa, 2500, 16384, 50\n1, GPU-bbbb, 4000, 8192, 0\n");
  gpus.Answer(4, "0, GPU-aaaa, 500, 16384, [N/A]\n1, GPU-bbbb, [Not Supported], 8192, 100\n");
  WriteFile(gpus.bin / "hang-after", "");
}

TEST(GpuSamplerTest, PeakMemoryAndMeanUtilizationPerDeviceOfWhatNvidiaSmiPrinted) {
  TempDir dir;
  FakeGpus gpus(dir);
  WriteFourAnswers(gpus);
  GpuSampler sampler(Fast());
  const nlohmann::json record = SampleUntil(sampler, 4);
  ASSERT_EQ(record["sampled"], true) << record.dump();
  EXPECT_EQ(record["samples"], 4);
  EXPECT_EQ(record["failed_samples"], 0);
  EXPECT_DOUBLE_EQ(record["interval_seconds"].get<double>(), 0.02);
  ASSERT_EQ(record["devices"].size(), 2u) << record.dump();
  const nlohmann::json& gpu0 = record["devices"][0];
  EXPECT_EQ(gpu0["index"], "0");
  EXPECT_EQ(gpu0["uuid"], "GPU-aaaa");
  EXPECT_EQ(gpu0["samples"], 4);
  EXPECT_DOUBLE_EQ(gpu0["peak_memory_used_mib"].get<double>(), 3000);
  EXPECT_DOUBLE_EQ(gpu0["memory_total_mib"].get<double>(), 16384);
  EXPECT_DOUBLE_EQ(gpu0["mean_utilization_percent"].get<double>(), 50);
  EXPECT_EQ(gpu0["utilization_samples"], 3);
  const nlohmann::json& gpu1 = record["devices"][1];
  EXPECT_DOUBLE_EQ(gpu1["peak_memory_used_mib"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(gpu1["mean_utilization_percent"].get<double>(), 25);
  EXPECT_EQ(gpu1["utilization_samples"], 4);
  // The garbage line is a warning that names it; its sample still counted.
  ASSERT_EQ(record["warnings"].size(), 1u) << record.dump();
  EXPECT_NE(record["warnings"][0].get<std::string>().find("infoROM is corrupted"), std::string::npos);
}

TEST(GpuSamplerTest, KeepsOnlyTheRunsOwnDevicesByIndexOrUuid) {
  TempDir dir;
  FakeGpus gpus(dir);
  WriteFourAnswers(gpus);
  GpuSampler by_index(Fast({"1"}));
  nlohmann::json record = SampleUntil(by_index, 4);
  ASSERT_EQ(record["devices"].size(), 1u) << record.dump();
  EXPECT_EQ(record["devices"][0]["index"], "1");
  EXPECT_DOUBLE_EQ(record["devices"][0]["peak_memory_used_mib"].get<double>(), 4000);
  EXPECT_EQ(record["devices_requested"], nlohmann::json({"1"}));

  fs::remove(gpus.bin / "count");
  GpuSampler by_uuid(Fast({"GPU-aaa"}));  // CUDA_VISIBLE_DEVICES takes a unique prefix of a UUID
  record = SampleUntil(by_uuid, 4);
  ASSERT_EQ(record["devices"].size(), 1u) << record.dump();
  EXPECT_EQ(record["devices"][0]["index"], "0");
  EXPECT_DOUBLE_EQ(record["devices"][0]["peak_memory_used_mib"].get<double>(), 3000);

  fs::remove(gpus.bin / "count");
  GpuSampler absent(Fast({"7"}));
  record = SampleUntil(absent, 1, 0.3);
  EXPECT_EQ(record["samples"], 0);
  EXPECT_GT(record["failed_samples"].get<int>(), 0);
  EXPECT_TRUE(record["devices"].empty());
  EXPECT_NE(record["warnings"].dump().find("device 7: nvidia-smi never listed it"), std::string::npos) << record.dump();
}

// A driver failure (exit 9 with nvidia-smi's message), an answer of garbage only, then a good answer: the two first
// are failed samples with warnings saying why, the third counts.
TEST(GpuSamplerTest, NonZeroExitAndGarbageAreFailedSamplesWithWarnings) {
  TempDir dir;
  FakeGpus gpus(dir);
  gpus.Answer(1, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n", 9);
  gpus.Answer(2, "%%% not csv at all %%%\n");
  gpus.Answer(3, "0, GPU-aaaa, 700, 16384, 35\n");
  WriteFile(gpus.bin / "hang-after", "");
  GpuSampler sampler(Fast());
  const nlohmann::json record = SampleUntil(sampler, 1);
  EXPECT_EQ(record["samples"], 1) << record.dump();
  EXPECT_EQ(record["failed_samples"], 2);
  EXPECT_DOUBLE_EQ(record["devices"][0]["peak_memory_used_mib"].get<double>(), 700);
  EXPECT_DOUBLE_EQ(record["devices"][0]["mean_utilization_percent"].get<double>(), 35);
  const std::string warnings = record["warnings"].dump();
  EXPECT_NE(warnings.find("nvidia-smi exited with status 9: 'NVIDIA-SMI has failed"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("not csv at all"), std::string::npos) << warnings;
}

// Every call hangs: each is killed (its whole process group, the sleep it started too) after the timeout and
// counted as failed; Poll never blocks.
TEST(GpuSamplerTest, AHangingNvidiaSmiIsKilledAfterTheTimeout) {
  TempDir dir;
  FakeGpus gpus(dir);
  WriteFile(gpus.bin / "hang", "");
  GpuSamplerOptions options = Fast();
  options.timeout_seconds = 0.2;
  GpuSampler sampler(options);
  const auto start = std::chrono::steady_clock::now();
  double longest_poll = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.7) {
    const auto before = std::chrono::steady_clock::now();
    sampler.Poll();
    longest_poll =
        std::max(longest_poll, std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const nlohmann::json record = sampler.Finish();
  EXPECT_EQ(record["samples"], 0);
  EXPECT_GE(record["failed_samples"].get<int>(), 2) << record.dump();
  EXPECT_NE(record["warnings"].dump().find("did not answer within 0.2 s (killed)"), std::string::npos) << record.dump();
  EXPECT_LT(longest_poll, 1.0);  // a kill waits at most ~0.1 s for the process to go, never for the 30 s hang
  // The last hung call that started its sleep: that sleep is gone too (dead, at most a zombie no one reaps here).
  // On a loaded machine every call can be killed before its sleep starts: then there is no file and no sleep.
  // (An empty pid once read /proc//stat, the machine's own statistics, and failed under load.)
  std::string sleep_pid = fs::exists(gpus.bin / "sleep.pid") ? ReadFile(gpus.bin / "sleep.pid") : "";
  sleep_pid = sleep_pid.substr(0, sleep_pid.find('\n'));
  if (!sleep_pid.empty()) {
    ASSERT_EQ(sleep_pid.find_first_not_of("0123456789"), std::string::npos) << sleep_pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string stat = ReadFile("/proc/" + sleep_pid + "/stat");
    EXPECT_TRUE(stat.empty() || stat.find(") Z") != std::string::npos) << stat;
  }
}

TEST(GpuSamplerTest, NoNvidiaSmiOrSamplingOffIsNotSampledWithTheReason) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  {
    ScopedEnv path("PATH", (dir / "empty").string());
    GpuSampler sampler(Fast());
    sampler.Poll();
    EXPECT_EQ(sampler.Finish(), nlohmann::json({{"sampled", false}, {"reason", "nvidia-smi not found on PATH"}}));
  }
  FakeGpus gpus(dir);
  GpuSamplerOptions off = Fast();
  off.interval_seconds = 0;
  GpuSampler sampler(off);
  sampler.Poll();
  const nlohmann::json record = sampler.Finish();
  EXPECT_EQ(record["sampled"], false);
  EXPECT_NE(record["reason"].get<std::string>().find("gpu_sample_seconds = 0"), std::string::npos);
  EXPECT_FALSE(fs::exists(gpus.bin / "count")) << "nvidia-smi was called although sampling was off";
}

}  // namespace
}  // namespace evalsuite::study
