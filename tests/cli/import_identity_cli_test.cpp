// `evalsuite import` as issue 50's practitioner ran it: Hugging Face logs laid out hf/<config>/<seed>/ (the grouping
// printed before storing, then `compare` on the two configurations), --group-by path over Lightning versions with
// different hparams (a warning), a JSON Lines log in percent without "metric_range" (an error, nothing stored), and
// a YOLO results.csv found by --format auto.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string HfState(const std::vector<double>& accuracy) {
  std::string history;
  for (std::size_t e = 0; e < accuracy.size(); ++e) {
    history +=
        (e ? ", " : "") + json({{"epoch", e + 1.0}, {"eval_accuracy", accuracy[e]}, {"step", 10 * (e + 1)}}).dump();
  }
  return "{\"global_step\": 40, \"max_steps\": 40, \"epoch\": 4.0, \"log_history\": [" + history + "]}";
}

TEST(ImportIdentityCliTest, ConfigFoldersBecomeEntriesShownBeforeStoringAndCompared) {
  TempDir dir;
  WriteFile(dir / "hf/baseline/seed1/trainer_state.json", HfState({0.5, 0.6, 0.7, 0.9}));
  WriteFile(dir / "hf/baseline/seed2/trainer_state.json", HfState({0.5, 0.6, 0.85, 0.9}));
  WriteFile(dir / "hf/baseline/seed3/trainer_state.json", HfState({0.5, 0.6, 0.7, 0.82}));
  WriteFile(dir / "hf/fast/seed1/trainer_state.json", HfState({0.81, 0.9, 0.9, 0.9}));
  WriteFile(dir / "hf/fast/seed2/trainer_state.json", HfState({0.7, 0.85, 0.9, 0.9}));
  WriteFile(dir / "hf/fast/seed3/trainer_state.json", HfState({0.82, 0.9, 0.9, 0.9}));
  const std::string store = (dir / "s.db").string();
  auto r = RunEvalsuite({"import", (dir / "hf").string(), "--store", store, "--threshold", "0.8", "--study", "mine"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::size_t grouping = r.out.find("grouping by folder");
  const std::size_t stored = r.out.find("stored as study \"mine\"");
  ASSERT_NE(grouping, std::string::npos) << r.out;
  EXPECT_LT(grouping, stored) << r.out;
  EXPECT_NE(r.out.find("  baseline <- 3 runs from hf/baseline/seed1, hf/baseline/seed2, hf/baseline/seed3\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  fast     <- 3 runs from hf/fast/seed1, hf/fast/seed2, hf/fast/seed3\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("seed1\"  "), std::string::npos) << r.out;  // no entry is named after a seed

  auto compare = RunEvalsuite({"compare", store, "fast", "baseline", "--json", (dir / "c.json").string()});
  ASSERT_EQ(compare.exit_code, 0) << compare.err << compare.out;
  const json c = json::parse(ReadFile(dir / "c.json"));
  EXPECT_EQ(c["a"], "fast");
  EXPECT_EQ(c["b"], "baseline");
}

TEST(ImportIdentityCliTest, GroupByPathOverDifferentHparamsWarnsAndEntryWithGroupByIsRefused) {
  TempDir dir;
  for (int v = 0; v < 2; ++v) {
    const fs::path folder = dir / ("cnn/lightning_logs/version_" + std::to_string(v));
    WriteFile(folder / "metrics.csv", "epoch,step,val_acc\n0,99,0.6\n1,199,0.8\n");
    WriteFile(folder / "hparams.yaml", std::string("lr: ") + (v == 0 ? "0.1" : "0.01") + "\nseed: 7\n");
  }
  auto split = RunEvalsuite({"import", (dir / "cnn").string(), "--no-store", "--threshold", "0.7"});
  EXPECT_EQ(split.exit_code, 0) << split.err;
  EXPECT_NE(split.out.find("cnn lr=0.1  <- 1 run from"), std::string::npos) << split.out;
  EXPECT_NE(split.out.find("entries differ in: lr"), std::string::npos) << split.out;

  auto merged =
      RunEvalsuite({"import", (dir / "cnn").string(), "--no-store", "--threshold", "0.7", "--group-by", "path"});
  EXPECT_EQ(merged.exit_code, 3) << merged.err;
  EXPECT_NE(merged.err.find("warning: entry \"cnn\": its runs differ in the recorded hyperparameter lr (0.01 in "),
            std::string::npos)
      << merged.err;

  auto both = RunEvalsuite(
      {"import", (dir / "cnn").string(), "--no-store", "--threshold", "0.7", "--group-by", "path", "--entry", "x"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("--group-by"), std::string::npos) << both.err;
}

TEST(ImportIdentityCliTest, AJsonlLogInPercentWithoutMetricRangeStoresNothing) {
  TempDir dir;
  std::string text = "{\"type\":\"header\",\"entry\":\"mine\",\"metric\":\"val_top1\"}\n";
  for (int e = 1; e <= 3; ++e) {
    text += "{\"type\":\"eval\",\"epoch\":" + std::to_string(e) + ",\"train_seconds\":" + std::to_string(10 * e) +
            ",\"metric\":" + std::to_string(80 + 4 * e) + ".3}\n";
  }
  text += "{\"type\":\"end\",\"status\":\"not_reached\",\"train_seconds\":30}\n";
  WriteFile(dir / "runs/a.jsonl", text);
  auto r = RunEvalsuite({"import", (dir / "runs").string(), "--store", (dir / "s.db").string(), "--threshold", "0.9"});
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.err.find("every evaluation of val_top1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"metric_range\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing was stored"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));
}

TEST(ImportIdentityCliTest, AYoloResultsCsvIsFoundByAutoDetection) {
  TempDir dir;
  WriteFile(dir / "runs/detect/train/results.csv",
            "epoch,time,train/box_loss,metrics/precision(B),metrics/recall(B),metrics/mAP50(B),metrics/mAP50-95(B)\n"
            "1,61.2,1.5,0.55,0.41,0.402,0.22\n2,119.8,1.4,0.61,0.5,0.515,0.3\n");
  auto r =
      RunEvalsuite({"import", (dir / "runs/detect/train/results.csv").string(), "--no-store", "--threshold", "0.5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("MLPerf"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("metrics/mAP50(B) >= 0.5: 1 of 1 runs reached"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TTA 119.8 seconds"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace evalsuite
