// A built-in entry's hardware view from its own study runs: the JSON Lines end record's "hardware" block survives
// the log reader and the store, the entry's figures are its median run's by achieved FLOP/s, and the report rates
// them against the ceilings the study recorded in its environment: a hand-set ceiling gives the exact MFU.
#include "study/hardware/builtin_hardware.h"

#include <gtest/gtest.h>

#include "reports/report.h"
#include "runlog/jsonl_run_log.h"
#include "study/study_summary.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

// A hardware block as step_accounting.h writes it: `samples` in `seconds` at 7.5 MFLOP and 1.25 MB per sample.
json Hardware(double samples, double seconds) {
  const double flops = 7.5e6 * samples;
  return {{"samples", samples},
          {"train_seconds", seconds},
          {"flops_per_sample", 7.5e6},
          {"bytes_per_sample", 1.25e6},
          {"intensity", 6.0},
          {"achieved_flops", flops / seconds},
          {"precision", "fp32"},
          {"phases",
           {{{"side", 28},
             {"flops_per_sample", 7.5e6},
             {"bytes_per_sample", 1.25e6},
             {"intensity", 6.0},
             {"samples_per_second", samples / seconds},
             {"achieved_flops", flops / seconds}}}},
          {"time", {{"forward", 1.0}, {"wall", 4.0}}},
          {"memory", {{"parameters", 1024}}}};
}

store::RunRecord MakeBuiltinRun(int index, const json& hardware) {
  store::RunRecord run;
  run.entry = "baseline";
  run.run_index = index;
  run.log.header = {{"entry", "baseline"}, {"hyperparameters", {{"batch_size", 128}, {"epochs", 6}}}};
  run.log.status = analysis::EndedAs::kReached;
  run.log.points.push_back({1, 10, 11, 0.92, std::nullopt});
  run.log.train_seconds = 10;
  run.log.hardware = hardware;
  return run;
}

TEST(BuiltinHardwareTest, TheEndRecordsHardwareBlockIsRead) {
  TempDir dir;
  evalsuite::testing::WriteFile(
      dir / "log.jsonl",
      "{\"type\":\"header\",\"entry\":\"baseline\"}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"wall_seconds\":3,\"metric\":0.9}\n"
      "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":2,\"hardware\":" +
          Hardware(4000, 2).dump() + "}\n");
  const runlog::RunLog log = runlog::ReadJsonlRunLog(dir / "log.jsonl");
  EXPECT_EQ(log.hardware, Hardware(4000, 2));
}

TEST(BuiltinHardwareTest, MedianRunByAchievedFlops) {
  // 4000 samples in 2 s, 8 s and 4 s: 15, 3.75 and 7.5 GFLOP/s; the median is run 2's 7.5.
  const std::vector<store::RunRecord> runs = {MakeBuiltinRun(0, Hardware(4000, 2)),
                                              MakeBuiltinRun(1, Hardware(4000, 8)),
                                              MakeBuiltinRun(2, Hardware(4000, 4)), MakeBuiltinRun(3, json())};
  const std::optional<json> e = BuiltinHardwareEntry("baseline", runs);
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["achieved_flops"].get<double>(), 7.5e9);
  EXPECT_EQ((*e)["samples_per_second"].get<double>(), 1000.0);
  EXPECT_EQ((*e)["batch_size"], 128);
  EXPECT_EQ((*e)["epochs"], 6);
  EXPECT_EQ((*e)["runs"].size(), 3u);  // the run without a block is left out
  EXPECT_EQ((*e)["figures_source"], "run 2 of this study, the median of 3 by achieved FLOP/s");
  EXPECT_FALSE(BuiltinHardwareEntry("baseline", {MakeBuiltinRun(0, json())}));
}

TEST(BuiltinHardwareTest, FixtureStoreWithHandSetCeilingsGivesTheExactMfu) {
  TempDir dir;
  {
    auto store = store::RunStore::Open(dir / "s.db");
    const json ceilings = {{"source", "measured"},
                           {"where", "hand-set"},
                           {"machine", {{"peak_fp32_flops", 30e9}, {"bandwidth_bytes", 2.5e9}}}};
    const int64_t id = store->CreateStudy("fixture", "study", json::object(), {{"host", "h"}});
    store->SetStudyEnvironmentKey(id, "machine_ceilings", ceilings);
    store::EntryRecord entry;
    entry.name = "baseline";
    entry.threshold = 0.9;
    store->UpsertEntry(id, entry);
    store->InsertRun(id, MakeBuiltinRun(0, Hardware(4000, 4)));  // 7.5 GFLOP/s
  }
  auto store = store::RunStore::OpenForReading(dir / "s.db");
  const store::StudyInfo info = *store->FindStudy("fixture");
  EXPECT_EQ(store->LoadRuns(info.id)[0].log.hardware, Hardware(4000, 4));  // kept by the store
  const reports::ReportModel model_report = reports::BuildStabilityReport(BuildReportInput(*store, {info}));
  const json model = reports::ToJson(model_report);
  const json& e = model["hardware"]["entries"][0];
  EXPECT_DOUBLE_EQ(e["mfu"].get<double>(), 0.25);  // 7.5 / 30 GFLOP/s
  // Ridge 30 / 2.5 = 12 FLOP/byte; at 6 the slope allows 15 GFLOP/s, and 7.5 is half of it: memory-bound.
  EXPECT_EQ(e["attainable_flops"].get<double>(), 15e9);
  EXPECT_EQ(e["bound"], "memory-bound");
  EXPECT_DOUBLE_EQ(e["phases"][0]["mfu"].get<double>(), 0.25);
  EXPECT_EQ(model["hardware"]["machine"]["ceilings_source"]["kind"], "measured in this study");
  const std::string md = reports::RenderMarkdown(model_report);
  EXPECT_NE(md.find("| baseline | 28 | fp32 | 128 | 7.500 | 1250.0 | 6.00 | 1000 | 7.50 | 25.0% | memory-bound |"),
            std::string::npos)
      << md;
}

}  // namespace
}  // namespace evalsuite::study
