// The invariants every import format keeps (issue 35): for every run, its TTA (the group's scoring rule, and the one
// every reader derives from the stored curve and threshold) lies within the run's own time span, every evaluation
// too, and every run keeps the entry its source names (a JSON Lines header's "entry", else its folder; DAWNBench's
// task/name; MLPerf's system/benchmark folder). Over synthetic logs of each format imported together (several
// entries in one folder, a header naming none, an MLPerf run evaluated after run_stop) and the shared DAWNBench
// entries and MLPerf rounds v4.0 to v5.0 (skipped without ../shared).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "importer/importer.h"
#include "runlog/jsonl_run_log.h"
#include "stats/curve.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::MllogRecord;
using testing::TempDir;
using testing::WriteFile;

// The entry a run's source names, read from the source itself (not from what the importer wrote).
std::string SourceEntry(const ImportedGroup& g, const ImportedRun& run) {
  if (g.format == "jsonl") {
    const json header = runlog::ReadJsonlRunLog(run.file).header;
    if (header.contains("entry") && header["entry"].is_string() && !header["entry"].get<std::string>().empty()) {
      return header["entry"];
    }
    return fs::absolute(run.file).parent_path().filename().string();
  }
  if (g.format == "mlperf") {
    const fs::path folder = run.file.parent_path();
    return folder.parent_path().filename().string() + "/" + g.benchmark;
  }
  return g.benchmark + "/" + run.file.stem().string();  // DAWNBench: task/name
}

void ExpectInvariants(const ImportResult& result) {
  ASSERT_FALSE(result.groups.empty());
  for (const ImportedGroup& g : result.groups) {
    for (const ImportedRun& run : g.runs) {
      SCOPED_TRACE(run.file.string());
      EXPECT_EQ(run.log.header.value("entry", std::string()), g.entry);
      EXPECT_EQ(SourceEntry(g, run), g.entry);
      const double span = run.log.train_seconds;
      for (const runlog::EvalPoint& p : run.log.points) {
        EXPECT_GE(p.train_seconds, 0.0);
        EXPECT_LE(p.train_seconds, span);
      }
      if (run.tta_minutes) {
        EXPECT_GE(*run.tta_minutes, 0.0);
        EXPECT_LE(*run.tta_minutes * 60.0, span * (1 + 1e-12));
      }
      if (g.stored_threshold) {
        std::vector<stats::CurvePoint> curve;
        for (const runlog::EvalPoint& p : run.log.points) curve.push_back({p.train_seconds, p.metric});
        if (const std::optional<double> tta = stats::TimeToTarget(curve, *g.stored_threshold)) {
          EXPECT_GE(*tta, 0.0);
          EXPECT_LE(*tta, span);
        }
      }
    }
  }
}

void WriteJsonl(const fs::path& file, const std::string& entry, double pace, double end_seconds) {
  fs::create_directories(file.parent_path());
  runlog::JsonlRunLogWriter writer(file);
  json header = {{"metric", "val_top1"}, {"threshold", 0.85}};
  if (!entry.empty()) header["entry"] = entry;
  writer.WriteHeader(header);
  for (int epoch = 1; epoch <= 3; ++epoch) {
    runlog::EvalPoint p;
    p.epoch = epoch;
    p.train_seconds = p.wall_seconds = 60.0 * epoch * pace;
    p.metric = 0.75 + 0.05 * epoch;
    writer.WriteEval(p);
  }
  writer.WriteEnd(analysis::EndedAs::kReached, std::nullopt, 3, end_seconds, end_seconds);
}

// An MLPerf-style run whose evaluations are logged after run_stop (offline), dated by block_stop records.
std::string OfflineEvaluatedRun(long start_ms, int seed) {
  std::string log = MllogRecord(start_ms - 3000, "submission_benchmark", "\"resnet\"") +
                    MllogRecord(start_ms - 2000, "seed", std::to_string(seed)) +
                    MllogRecord(start_ms - 1000, "global_batch_size", "256") +
                    MllogRecord(start_ms, "run_start", "null");
  for (int k = 1; k <= 3; ++k) {
    log += MllogRecord(start_ms + k * 60000, "block_stop", "\"training_step\"",
                       "{\"samples_count\": " + std::to_string(k * 1000) + "}");
  }
  const long stop = start_ms + 3 * 60000;
  log += MllogRecord(stop, "run_stop", "null", "{\"status\": \"success\"}");
  for (int k = 1; k <= 3; ++k) {  // evaluated an hour later
    log +=
        MllogRecord(stop + 3600000 + k * 1000, "eval_accuracy", std::to_string(0.70 + 0.03 * k),
                    "{\"epoch_num\": " + std::to_string(k) + ", \"samples_count\": " + std::to_string(k * 1000) + "}");
  }
  return log;
}

TEST(ImportInvariantsTest, EveryFormatKeepsTtaInsideTheRunAndTheEntryItsSourceNames) {
  TempDir dir;
  // JSON Lines: two entries in one folder, one in another, runs naming none, an end record shorter than an eval.
  WriteJsonl(dir / "logs" / "mixed" / "a1.jsonl", "A", 1.0, 180);
  WriteJsonl(dir / "logs" / "mixed" / "b1.jsonl", "B", 2.0, 360);
  WriteJsonl(dir / "logs" / "mixed" / "a2.jsonl", "A", 1.1, 100);  // shorter than its last evaluation (198 s)
  WriteJsonl(dir / "logs" / "mixed" / "plain.jsonl", "", 1.5, 270);
  WriteJsonl(dir / "logs" / "other" / "b2.jsonl", "B", 2.2, 400);
  WriteJsonl(dir / "logs" / "other" / "plain.jsonl", "", 1.7, 310);
  // DAWNBench.
  fs::create_directories(dir / "logs" / "CIFAR10" / "train");
  WriteFile(dir / "logs" / "CIFAR10" / "train" / "net.tsv",
            "epoch\thours\ttop1Accuracy\n1\t0.01\t80\n2\t0.02\t94.5\n3\t0.03\t95\n");
  // MLPerf: evaluations after run_stop.
  const fs::path resnet = dir / "logs" / "v3.0" / "ACME" / "results" / "sys" / "resnet";
  fs::create_directories(resnet);
  for (int i = 0; i < 5; ++i) {
    WriteFile(resnet / ("result_" + std::to_string(i) + ".txt"), OfflineEvaluatedRun(1000000 + i * 10000000L, i + 1));
  }
  ImportOptions options;
  options.paths = {dir / "logs"};
  const ImportResult result = Import(options);
  ExpectInvariants(result);
  std::vector<std::string> entries;
  for (const ImportedGroup& g : result.groups) entries.push_back(g.entry);
  for (const char* want : {"A", "B", "mixed", "other", "CIFAR10/net", "sys/resnet"}) {
    EXPECT_NE(std::find(entries.begin(), entries.end(), want), entries.end()) << want;
  }
}

TEST(ImportInvariantsTest, SharedRoundsAndDawnbenchKeepTheInvariants) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  // Every round but the one held out while fixing issue 35 (v5.1), and v0.6 whose logs count seconds.
  for (const char* round : {"training_results_v4.0", "training_results_v4.1", "training_results_v5.0"}) {
    SCOPED_TRACE(round);
    ImportOptions options;
    options.paths = {shared / "mlperf" / round};
    ExpectInvariants(Import(options));
  }
  ImportOptions options;
  options.paths = {shared / "dawnbench"};
  ExpectInvariants(Import(options));
}

}  // namespace
}  // namespace evalsuite::importer
