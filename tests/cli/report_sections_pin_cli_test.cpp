// Pins `evalsuite report`'s generalization and hardware sections, byte for byte, as the binary before issue 53's
// typed sections wrote them (report.json's two blocks and report.md's sections): decoding each --section once where
// it is read, and the store's hardware rows once, must not change a byte of what the user reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// An external log that declares its FLOPs (a store row of the hardware section, rated against its A100's peak).
constexpr const char* kGpuLog =
    R"pin({"type":"header","entry":"gpu","threshold":0.9,"flops_per_sample":6e9,"bytes_per_sample":2e8,"samples_per_epoch":50000,"device":"NVIDIA A100-SXM4-80GB","precision":"bf16","hyperparameters":{"batch_size":256}}
{"type":"eval","epoch":2,"train_seconds":50,"wall_seconds":55,"metric":0.8}
{"type":"eval","epoch":4,"train_seconds":100,"wall_seconds":110,"metric":0.92}
{"type":"end","status":"reached","train_seconds":100,"wall_seconds":110}
)pin";
// `evalsuite machine --json` as a user might have written it: a machine with one probe, one profiled entry.
constexpr const char* kHardwareFile =
    R"pin({"machine": {"cpu_model": "cpu", "cores": 8, "threads": 16, "peak_fp32_flops": 1e11, "peak_bf16_flops": 2e11,
  "bandwidth_bytes": 1e10, "probes": [{"name": "triad", "shape": "64 MiB", "unit": "bytes/s", "best": 1e10, "median": 9e9}]},
 "entries": [{"entry": "baseline", "precision": "fp32", "batch_size": 512, "flops_per_sample": 7.47e6, "intensity": 5.8,
              "samples_per_second": 4000, "achieved_flops": 2.99e10, "mfu": 0.299, "bound": "memory-bound", "evidence": "slope",
              "time": {"data": 1, "forward": 2, "backward": 3, "optimizer": 0.5, "evaluation": 1, "idle": 0.1, "wall": 8},
              "phases": [{"side": 16, "flops_per_sample": 3e6, "intensity": 4, "samples_per_second": 5000, "achieved_flops": 1.5e10, "mfu": 0.15}]}]}
)pin";
// `holdout eval --json`: an array of one image set, and a lone image set.
constexpr const char* kGeneralizationA =
    R"pin([{"image_set": "holdout-a", "images": 10, "models": [{"name": "m", "group": "pretrained", "evaluated": 10, "top1": {"accuracy": 0.9, "lower": 0.6, "upper": 0.98}}],
  "verdict": {"label": "INCONCLUSIVE", "statement": "s", "test": "t", "error_rates": "Error rates, sim"}}]
)pin";
constexpr const char* kGeneralizationB =
    R"pin({"image_set": "holdout-b", "images": 10, "models": [{"name": "m", "group": "pretrained", "top1": {"accuracy": 0.7}}]}
)pin";

// report.json from its "generalization" key to the one before "methods", as the binary before the change wrote it.
constexpr const char* kReportJsonSections = R"pin(  "generalization": [
    {
      "image_set": "holdout-a",
      "images": 10,
      "models": [
        {
          "evaluated": 10,
          "group": "pretrained",
          "name": "m",
          "top1": {
            "accuracy": 0.9,
            "lower": 0.6,
            "upper": 0.98
          }
        }
      ],
      "verdict": {
        "error_rates": "Error rates, sim",
        "label": "INCONCLUSIVE",
        "statement": "s",
        "test": "t"
      }
    },
    {
      "image_set": "holdout-b",
      "images": 10,
      "models": [
        {
          "group": "pretrained",
          "name": "m",
          "top1": {
            "accuracy": 0.7
          }
        }
      ]
    }
  ],
  "hardware": {
    "entries": [
      {
        "achieved_flops": 29900000000.0,
        "batch_size": 512,
        "bound": "memory-bound",
        "entry": "baseline",
        "evidence": "slope",
        "flops_per_sample": 7470000.0,
        "intensity": 5.8,
        "mfu": 0.299,
        "phases": [
          {
            "achieved_flops": 15000000000.0,
            "flops_per_sample": 3000000.0,
            "intensity": 4,
            "mfu": 0.15,
            "samples_per_second": 5000,
            "side": 16
          }
        ],
        "precision": "fp32",
        "samples_per_second": 4000,
        "time": {
          "backward": 3,
          "data": 1,
          "evaluation": 1,
          "forward": 2,
          "idle": 0.1,
          "optimizer": 0.5,
          "wall": 8
        }
      },
      {
        "achieved_flops": 12000000000000.0,
        "bandwidth_source": "table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB)",
        "batch_size": 256,
        "bound": "overhead-bound",
        "bytes_per_sample": 200000000.0,
        "device": "NVIDIA A100-SXM4-80GB",
        "device_count": 1,
        "entry": "gpu",
        "evidence": "intensity 30.0 FLOP/byte is left of the ridge (153.0), so the roofline allows 61170.00 GFLOP/s; it achieves 12000.00 GFLOP/s, 20% of that (median of 1 run: 2000 samples/s)",
        "figures_source": "declared by the log",
        "flops_per_sample": 6000000000.0,
        "intensity": 30.0,
        "mfu": 0.038461538461538464,
        "peak_bandwidth": 2039000000000.0,
        "peak_flops": 312000000000000.0,
        "peak_source": "table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB, bf16)",
        "precision": "bf16",
        "runs": [
          {
            "achieved_flops": 12000000000000.0,
            "index": 0,
            "mfu": 0.038461538461538464,
            "samples": 200000.0,
            "samples_per_second": 2000.0,
            "train_seconds": 100.0
          }
        ],
        "samples_per_second": 2000.0,
        "source": "external"
      }
    ],
    "machine": {
      "bandwidth_bytes": 10000000000.0,
      "ceilings_source": {
        "kind": "the hardware section's file",
        "where": "measured by `evalsuite machine` when the section was written"
      },
      "cores": 8,
      "cpu_model": "cpu",
      "peak_bf16_flops": 200000000000.0,
      "peak_fp32_flops": 100000000000.0,
      "probes": [
        {
          "best": 10000000000.0,
          "median": 9000000000.0,
          "name": "triad",
          "shape": "64 MiB",
          "unit": "bytes/s"
        }
      ],
      "ridge_bf16": 20.0,
      "ridge_fp32": 10.0,
      "threads": 16
    }
  },
)pin";

// report.md from "## Generalization" to the line before "## Methods".
constexpr const char* kReportMarkdownSections = R"pin(## Generalization to unseen data (Table 4)

### holdout-a: 10 images, — unreadable

**Verdict:** INCONCLUSIVE: s (t)

| Model | Group | Top-1 on unseen data [95% CI] | Top-5 [95% CI] | Validation top-1 | Gap | Evaluated | Not covered |
|---|---|---:|---:|---:|---:|---:|---:|
| m | pretrained | 90.00% [60.00%, 98.00%] | — | — | — | 10 | — |

### holdout-b: 10 images, — unreadable

| Model | Group | Top-1 on unseen data [95% CI] | Top-5 [95% CI] | Validation top-1 | Gap | Evaluated | Not covered |
|---|---|---:|---:|---:|---:|---:|---:|
| m | pretrained | 70.00% | — | — | — | — | — |

## Hardware: why TTA is what it is

| Ceiling | Measured | How |
|---|---:|---|
| ceilings used | the hardware section's file | measured by \`evalsuite machine\` when the section was written |
| triad | 10.00 GB/s | 64 MiB (median 9.00) |
| peak fp32 / bf16 | 100.00 / 200.00 GFLOP/s | best probe per precision (MFU's denominator) |
| ridge fp32 | 10.0 FLOP/byte | peak / bandwidth |
| theoretical fp32 / bf16 | — / — GFLOP/s |  |
| cpu | 8 cores, 16 threads | cpu |

- baseline is memory-bound: slope (MFU 29.9%); of its step time, data 15.4% , optimizer 7.7%.
- gpu is overhead-bound: intensity 30.0 FLOP/byte is left of the ridge (153.0), so the roofline allows 61170.00 GFLOP/s; it achieves 12000.00 GFLOP/s, 20% of that (median of 1 run: 2000 samples/s) (MFU 3.85%).

### Per entry (progressive-resize stages as separate rows)

| Entry | Side | Precision | Batch | MFLOP/sample | KB/sample | FLOP/byte | Samples/s | GFLOP/s | MFU | Bound | Peak (source) |
|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|
| baseline | 16 | fp32 | 512 | 3.000 | 0.0 | 4.00 | 5000 | 15.00 | 15.0% | memory-bound | measured on this machine |
| gpu | — | bf16 | 256 | 6000.000 | 200000.0 | 30.00 | 2000 | 12000.00 | 3.85% | overhead-bound | 312000.00 GFLOP/s (table: NVIDIA A100 datasheet (NVIDIA A100 SXM4 80GB, bf16)) |

### Time breakdown (share of the profiled run's wall time)

| Entry | Data | Forward | Backward | Optimizer | Evaluation | Idle | Evaluation in a full run |
|---|---:|---:|---:|---:|---:|---:|---:|
| baseline | 12.5% | 25.0% | 37.5% | 6.2% | 12.5% | 1.2% | — |

The roofline chart is in report.html.

)pin";

// A study whose entry's logs carry `evalsuite train`'s hardware record, rated against the study's recorded ceilings
// (a file), joined to a --section file that names one of its entries: the store's row wins, once rated.
constexpr const char* kHardwareEntry = R"pin(#!/bin/sh
log=$1; seed=$2
echo "{\"type\":\"header\",\"entry\":\"alpha\",\"hyperparameters\":{\"batch_size\":128,\"epochs\":2}}" > "$log"
echo "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":10,\"wall_seconds\":11,\"metric\":0.8}" >> "$log"
echo "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":20,\"wall_seconds\":22,\"metric\":0.9}" >> "$log"
echo "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":20,\"hardware\":{\"precision\":\"fp32\",\"samples\":60000,\"train_seconds\":20,\"flops_per_sample\":7.5e6,\"bytes_per_sample\":1.5e6,\"intensity\":5.0,\"achieved_flops\":$((seed % 3 + 1))2.5e9,\"phases\":[{\"side\":16,\"samples\":30000,\"steps\":100,\"seconds\":10.5,\"flops_per_sample\":5e6,\"intensity\":5.0,\"samples_per_second\":2857.1,\"achieved_flops\":1.4e10}],\"time\":{\"data\":1.5,\"forward\":10,\"backward\":15,\"optimizer\":2,\"evaluation\":3,\"idle\":0.5,\"wall\":32},\"memory\":{\"parameters\":1000000,\"peak\":2.1e8}}}" >> "$log"
)pin";
constexpr const char* kCeilingsFile =
    R"pin({"machine": {"peak_fp32_flops": 40e9, "peak_bf16_flops": 160e9, "bandwidth_bytes": 10e9, "measured_at": "2026-11-23T00:00:00Z"}}
)pin";
constexpr const char* kStudyFile = R"pin(name = "hw"
runs = 3
seed = 5
threshold = 0.85
jobs = 1
threads = 1
machine_ceilings = "ceilings.json"
entries = [{ name = "alpha", command = "sh {study_dir}/entry.sh {log} {seed}" }]
)pin";
constexpr const char* kStudyHardwareFile =
    R"pin({"machine": {"cpu_model": "cpu", "peak_fp32_flops": 1e11, "bandwidth_bytes": 1e10},
 "entries": [{"entry": "baseline", "precision": "fp32", "intensity": 2, "achieved_flops": 1.5e10, "mfu": 0.15},
             {"entry": "alpha", "precision": "fp32", "intensity": 9, "achieved_flops": 1e9}]}
)pin";
// report.json's "hardware" block and report.md's hardware section, {DIR} standing for the test's folder.
constexpr const char* kStudyHardwareJson = R"pin(  "hardware": {
    "entries": [
      {
        "achieved_flops": 15000000000.0,
        "attainable_flops": 20000000000.0,
        "bound": "memory-bound",
        "entry": "baseline",
        "evidence": "intensity 2.0 FLOP/byte is left of the ridge (4.0), so the roofline allows 20.00 GFLOP/s; it achieves 15.00 GFLOP/s, 75% of that",
        "intensity": 2,
        "mfu": 0.375,
        "peak_flops": 40000000000.0,
        "precision": "fp32"
      },
      {
        "achieved_flops": 32500000000.0,
        "attainable_flops": 40000000000.0,
        "batch_size": 128,
        "bound": "compute-bound",
        "bytes_per_sample": 1500000.0,
        "entry": "alpha",
        "epochs": 2,
        "evidence": "intensity 5.0 FLOP/byte is right of the ridge (4.0), so the roofline allows 40.00 GFLOP/s; it achieves 32.50 GFLOP/s, 81% of that",
        "figures_source": "run 0 of this study, the median of 3 by achieved FLOP/s",
        "flops_per_sample": 7500000.0,
        "intensity": 5.0,
        "memory": {
          "parameters": 1000000,
          "peak": 210000000.0
        },
        "mfu": 0.8125,
        "peak_flops": 40000000000.0,
        "phases": [
          {
            "achieved_flops": 14000000000.0,
            "attainable_flops": 40000000000.0,
            "bound": "overhead-bound",
            "flops_per_sample": 5000000.0,
            "intensity": 5.0,
            "mfu": 0.35,
            "samples": 30000,
            "samples_per_second": 2857.1,
            "seconds": 10.5,
            "side": 16,
            "steps": 100
          }
        ],
        "precision": "fp32",
        "runs": [
          {
            "achieved_flops": 12500000000.0,
            "index": 2,
            "samples_per_second": 3000.0
          },
          {
            "achieved_flops": 32500000000.0,
            "index": 0,
            "samples_per_second": 3000.0
          },
          {
            "achieved_flops": 32500000000.0,
            "index": 1,
            "samples_per_second": 3000.0
          }
        ],
        "samples_per_second": 3000.0,
        "time": {
          "backward": 15,
          "data": 1.5,
          "evaluation": 3,
          "forward": 10,
          "idle": 0.5,
          "optimizer": 2,
          "wall": 32
        }
      }
    ],
    "machine": {
      "bandwidth_bytes": 10000000000.0,
      "ceilings_source": {
        "kind": "file {DIR}/ceilings.json",
        "where": "read from {DIR}/ceilings.json (measured 2026-11-23T00:00:00Z)"
      },
      "measured_at": "2026-11-23T00:00:00Z",
      "peak_bf16_flops": 160000000000.0,
      "peak_fp32_flops": 40000000000.0,
      "ridge_bf16": 16.0,
      "ridge_fp32": 4.0
    }
  },
)pin";
constexpr const char* kStudyHardwareMarkdown = R"pin(## Hardware: why TTA is what it is

| Ceiling | Measured | How |
|---|---:|---|
| ceilings used | file {DIR}/ceilings.json | read from {DIR}/ceilings.json (measured 2026-11-23T00:00:00Z) |
| peak fp32 / bf16 | 40.00 / 160.00 GFLOP/s | best probe per precision (MFU's denominator) |
| ridge fp32 | 4.0 FLOP/byte | peak / bandwidth |
| theoretical fp32 / bf16 | — / — GFLOP/s |  |
| cpu |  cores,  threads |  |

- baseline is memory-bound: intensity 2.0 FLOP/byte is left of the ridge (4.0), so the roofline allows 20.00 GFLOP/s; it achieves 15.00 GFLOP/s, 75% of that (MFU 37.5%).
- alpha is compute-bound: intensity 5.0 FLOP/byte is right of the ridge (4.0), so the roofline allows 40.00 GFLOP/s; it achieves 32.50 GFLOP/s, 81% of that (MFU 81.2%); of its step time, data 5.3% , optimizer 7.0%.

### Per entry (progressive-resize stages as separate rows)

| Entry | Side | Precision | Batch | MFLOP/sample | KB/sample | FLOP/byte | Samples/s | GFLOP/s | MFU | Bound | Peak (source) |
|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|
| baseline | — | fp32 |  | 0.000 | 0.0 | 2.00 | 0 | 15.00 | 37.5% | memory-bound | measured on this machine |
| alpha | 16 | fp32 | 128 | 5.000 | 0.0 | 5.00 | 2857 | 14.00 | 35.0% | overhead-bound | measured on this machine |

### Time breakdown (share of the profiled run's wall time)

| Entry | Data | Forward | Backward | Optimizer | Evaluation | Idle | Evaluation in a full run |
|---|---:|---:|---:|---:|---:|---:|---:|
| alpha | 4.7% | 31.2% | 46.9% | 6.2% | 9.4% | 1.6% | — |

### Memory breakdown (counted from the tensors the trainer holds)

| Entry (MiB) | Parameters | Gradients | Optimizer | Activations | Temporaries | Input batch | Dataset | Steady | Peak (counted) | Peak RSS |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| alpha | 0.95 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 200.27 | 0.00 |

The roofline chart is in report.html.

)pin";

std::string WithDir(std::string text, const std::string& dir) {
  for (std::size_t at = text.find("{DIR}"); at != std::string::npos; at = text.find("{DIR}", at + dir.size())) {
    text.replace(at, 5, dir);
  }
  return text;
}

std::string Between(const std::string& text, const std::string& from, const std::string& to) {
  const std::size_t start = text.find(from);
  if (start == std::string::npos) return "";
  const std::size_t end = text.find(to, start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(ReportSectionsPinCliTest, GeneralizationAndHardwareSectionsAreByteIdentical) {
  TempDir dir;
  WriteFile(dir / "gpu.jsonl", kGpuLog);
  WriteFile(dir / "hw.json", kHardwareFile);
  WriteFile(dir / "a.json", kGeneralizationA);
  WriteFile(dir / "b.json", kGeneralizationB);
  const auto imported =
      RunEvalsuite({"import", (dir / "gpu.jsonl").string(), "--store", (dir / "s.db").string(), "--quiet"});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const auto report = RunEvalsuite({"report", (dir / "s.db").string(), "--out", (dir / "rep").string(), "--section",
                                    "hardware=" + (dir / "hw.json").string(), "--section",
                                    "generalization=" + (dir / "a.json").string(), "--section",
                                    "generalization=" + (dir / "b.json").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(Between(ReadFile(dir / "rep" / "report.json"), "  \"generalization\": [", "  \"methods\": ["),
            kReportJsonSections);
  EXPECT_EQ(Between(ReadFile(dir / "rep" / "report.md"), "## Generalization", "## Methods"), kReportMarkdownSections);
}

// The study's built-in rows are rated against its ceilings once, after the file's rows joined them.
TEST(ReportSectionsPinCliTest, StudyHardwareRowsRatedOnceAreByteIdentical) {
  TempDir dir;
  WriteFile(dir / "entry.sh", kHardwareEntry);
  WriteFile(dir / "ceilings.json", kCeilingsFile);
  WriteFile(dir / "s.toml", kStudyFile);
  WriteFile(dir / "hw.json", kStudyHardwareFile);
  const std::string store = (dir / "s.db").string();
  const auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                                 (dir / "runs").string(), "--progress", "none"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto report = RunEvalsuite(
      {"report", store, "--out", (dir / "rep").string(), "--section", "hardware=" + (dir / "hw.json").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.err.find("hardware entry 'alpha' is shown from this study's runs"), std::string::npos) << report.err;
  const std::string folder = dir.path().string();
  EXPECT_EQ(Between(ReadFile(dir / "rep" / "report.json"), "  \"hardware\": {", "  \"methods\": ["),
            WithDir(kStudyHardwareJson, folder));
  EXPECT_EQ(Between(ReadFile(dir / "rep" / "report.md"), "## Hardware", "## Methods"),
            WithDir(kStudyHardwareMarkdown, folder));
}

// Decoded where it is read: a field of the wrong kind in the second of two files is refused naming that file and the
// field's path, and no report is written.
TEST(ReportSectionsPinCliTest, BadSectionFileNamesTheFileAndField) {
  TempDir dir;
  WriteFile(dir / "gpu.jsonl", kGpuLog);
  WriteFile(dir / "a.json", kGeneralizationA);
  WriteFile(dir / "bad.json", R"([{"image_set": "x", "images": 2.5, "models": [{"name": "m"}]}])");
  ASSERT_EQ(
      RunEvalsuite({"import", (dir / "gpu.jsonl").string(), "--store", (dir / "s.db").string(), "--quiet"}).exit_code,
      0);
  const auto report = RunEvalsuite({"report", (dir / "s.db").string(), "--out", (dir / "rep").string(), "--section",
                                    "generalization=" + (dir / "a.json").string(), "--section",
                                    "generalization=" + (dir / "bad.json").string()});
  EXPECT_EQ(report.exit_code, 1) << report.err;
  EXPECT_NE(
      report.err.find((dir / "bad.json").string() + ": generalization section: [0].images must be a whole number"),
      std::string::npos)
      << report.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "rep" / "report.json"));
}

}  // namespace
}  // namespace evalsuite
