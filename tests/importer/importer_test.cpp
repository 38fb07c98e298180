// Import end to end below the CLI: grouping by <system>/<benchmark> folder, natural file order, MLPerf olympic
// scoring with failures (unet3d drop 4 + 4), DAWNBench TTA and cost, JSON shape, and the summary.csv acceptance
// test on the shared v2.0 logs.
#include "importer/importer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "importer/mlperf_compliance_table.h"
#include "runlog/jsonl_run_log.h"
#include "stats/curve.h"
#include "store/run_store.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

namespace fs = std::filesystem;
using testing::MllogRecord;
using testing::TempDir;
using testing::WriteFile;

// The keys the official compliance checker requires of a closed run of `benchmark` under `ruleset`, each logged
// once (submission_division as "closed"), except those the caller logs itself.
std::string RequiredKeys(const std::string& ruleset, const std::string& benchmark, long time_ms) {
  static const std::set<std::string> kLoggedByTests = {
      "submission_benchmark", "seed", "global_batch_size", "run_start", "run_stop", "eval_accuracy"};
  const ComplianceRules* rules = FindComplianceRules(ruleset, benchmark);
  if (rules == nullptr) return "";
  std::string out;
  for (const RequiredKey& k : rules->closed.required) {
    if (kLoggedByTests.count(k.key) != 0 || k.req == "OPTIONAL" || k.key == rules->closed.variant_key) continue;
    out += MllogRecord(time_ms, k.key, k.key == "submission_division" ? "\"closed\"" : "1");
  }
  // resnet's opt_name picks one more file of required keys: the first one.
  if (!rules->closed.variant_key.empty()) {
    const auto& [name, keys] = *rules->closed.variants.begin();
    out += MllogRecord(time_ms, rules->closed.variant_key, "\"" + name + "\"");
    for (const RequiredKey& k : keys) out += MllogRecord(time_ms, k.key, "1");
  }
  return out;
}

// One run: starts at `start_ms`, evaluates each minute with rising accuracy, stops after `minutes` minutes. It logs
// the keys ruleset 3.0.0 requires, so the official compliance rules count it.
std::string RunLogText(const std::string& benchmark, long start_ms, double minutes, const std::string& status, int seed,
                       int batch = 256, const std::string& final_accuracy = "0.999") {
  std::string log = "some shell output\n";
  log += RequiredKeys("3.0.0", benchmark, start_ms - 6000);
  log += MllogRecord(start_ms - 5000, "submission_benchmark", "\"" + benchmark + "\"");
  log += MllogRecord(start_ms - 4000, "seed", std::to_string(seed));
  log += MllogRecord(start_ms - 3000, "global_batch_size", std::to_string(batch));
  log += MllogRecord(start_ms, "run_start", "null");
  const long stop = start_ms + static_cast<long>(std::llround(minutes * 60000));
  int epoch = 1;
  for (long t = start_ms + 60000; t < stop; t += 60000, ++epoch) {
    log += MllogRecord(t, "eval_accuracy", std::to_string(0.5 + 0.01 * epoch),
                       "{\"epoch_num\": " + std::to_string(epoch) + "}");
  }
  // A run ends in success at an evaluation that meets the target (0.999 is above every benchmark's here).
  if (status == "success")
    log += MllogRecord(stop - 1000, "eval_accuracy", final_accuracy, "{\"epoch_num\": " + std::to_string(epoch) + "}");
  log += MllogRecord(stop, "run_stop", "null", "{\"status\": \"" + status + "\"}");
  return log;
}

fs::path MakeBenchmark(const fs::path& root, const std::string& system, const std::string& benchmark,
                       const std::vector<std::pair<double, std::string>>& runs, int first_index = 0) {
  const fs::path dir = root / "results" / system / benchmark;
  fs::create_directories(dir);
  fs::create_directories(root / "systems");  // the division, as the summarizer reads it
  WriteFile(root / "systems" / (system + ".json"), "{\"division\": \"closed\"}");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    WriteFile(dir / ("result_" + std::to_string(first_index + static_cast<int>(i)) + ".txt"),
              RunLogText(benchmark, 1000000 + static_cast<long>(i) * 10000000, runs[i].first, runs[i].second,
                         static_cast<int>(i) + 1));
  }
  return dir;
}

const ImportedGroup* FindGroup(const ImportResult& result, const std::string& benchmark) {
  for (const auto& g : result.groups) {
    if (g.benchmark == benchmark) return &g;
  }
  return nullptr;
}

// Issue 50 item 10: `import my.db` on a run store said "not an MLPerf result log ... invalid UTF-8". The file is
// named for what it is (common/file_kind.h), nothing is imported from it, and the store is left as it was.
TEST(ImporterTest, ARunStoreNamedAsALogIsSaidToBeOne) {
  evalsuite::testing::TempDir dir;
  const std::filesystem::path store = dir / "my.db";
  store::RunStore::Open(store);  // a fresh store: its tables
  ImportOptions options;
  options.paths = {store};
  const ImportResult result = Import(options);
  EXPECT_TRUE(result.groups.empty());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].rfind(store.string() + ": this is a run store (written by `evalsuite study run` and "
                                                    "`evalsuite import`), not a training log to import; a run store is "
                                                    "given as --store",
                                   0),
            0u)
      << result.errors[0];
  EXPECT_EQ(result.errors[0].find("UTF-8"), std::string::npos);
  EXPECT_EQ(result.errors[0].find("MLPerf"), std::string::npos);
}

TEST(ImporterTest, GroupsBySystemAndBenchmarkInNaturalOrderAndScoresOlympic) {
  TempDir dir;
  const fs::path root = dir / "ACME";
  // result_1 .. result_11: natural order puts result_2 before result_10.
  std::vector<std::pair<double, std::string>> runs;
  for (double m : {10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 40.0, 9.0}) runs.push_back({m, "success"});
  MakeBenchmark(root, "sys_pytorch", "bert", runs, 1);
  ImportOptions options;
  options.ruleset = "3.0.0";
  options.paths = {root};
  ImportResult result = Import(options);
  EXPECT_TRUE(result.errors.empty());
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front();
  ASSERT_EQ(result.groups.size(), 1u);
  const ImportedGroup& g = result.groups[0];
  EXPECT_EQ(g.source, "ACME/results/sys_pytorch/bert");
  EXPECT_EQ(g.system, "sys_pytorch");
  EXPECT_EQ(g.benchmark, "bert");
  EXPECT_EQ(g.format, "mlperf");
  ASSERT_EQ(g.runs.size(), 11u);
  EXPECT_EQ(g.runs[1].file.filename(), "result_2.txt");
  EXPECT_EQ(g.runs[9].file.filename(), "result_10.txt");
  EXPECT_EQ(g.runs[9].tta_minutes, 40.0);
  EXPECT_EQ(g.converged, 11u);
  // Drop 9 and 40: mean of 10..18.
  ASSERT_TRUE(g.olympic_minutes.has_value());
  EXPECT_NEAR(*g.olympic_minutes, 14.0, 1e-12);
  ASSERT_TRUE(g.cov.has_value());
  EXPECT_GT(*g.cov, 0.0);
  EXPECT_EQ(g.runs[0].seeds.value("seed", 0), 1);
  EXPECT_EQ(g.runs[0].log.status, analysis::EndedAs::kReached);
}

TEST(ImporterTest, OneFailureIsTheSlowestTwoFailuresNoScore) {
  TempDir dir;
  MakeBenchmark(dir.path(), "s", "resnet",
                {{20, "success"}, {21, "aborted"}, {22, "success"}, {23, "success"}, {24, "success"}});
  // bert's target 0.72: the aborted runs never reach it (0.71 at most), so the official checker drops them.
  MakeBenchmark(dir.path(), "s", "bert",
                {{20, "success"}, {21, "aborted"}, {22, "aborted"}, {23, "success"}, {24, "success"}});
  ImportOptions options;
  options.ruleset = "3.0.0";
  options.paths = {dir.path()};
  ImportResult result = Import(options);
  const ImportedGroup* resnet = FindGroup(result, "resnet");
  ASSERT_NE(resnet, nullptr);
  EXPECT_EQ(resnet->converged, 4u);
  EXPECT_FALSE(resnet->runs[1].tta_minutes.has_value());
  EXPECT_EQ(resnet->runs[1].log.status, analysis::EndedAs::kFailed);
  ASSERT_TRUE(resnet->olympic_minutes.has_value());
  EXPECT_NEAR(*resnet->olympic_minutes, (22.0 + 23 + 24) / 3, 1e-12);  // 20 dropped, the failure is the slowest
  const ImportedGroup* bert = FindGroup(result, "bert");
  ASSERT_NE(bert, nullptr);
  EXPECT_FALSE(bert->olympic_minutes.has_value());
}

TEST(ImporterTest, Unet3dDropsFourEachSideAndAllowsFourFailures) {
  TempDir dir;
  std::vector<std::pair<double, std::string>> runs;
  for (int i = 0; i < 36; ++i) runs.push_back({30.0 + i, "success"});
  for (int i = 0; i < 4; ++i) runs.push_back({40.0, "aborted"});  // 0.89 at most: below unet3d's 0.908
  MakeBenchmark(dir.path(), "s", "unet3d", runs);
  ImportOptions options;
  options.ruleset = "3.0.0";
  options.paths = {dir.path()};
  ImportResult result = Import(options);
  ASSERT_EQ(result.groups.size(), 1u);
  const ImportedGroup& g = result.groups[0];
  EXPECT_EQ(g.runs.size(), 40u);
  ASSERT_TRUE(g.olympic_minutes.has_value());
  // Drop the 4 fastest (30..33); the 4 failures are the 4 slowest: mean of 34..65.
  EXPECT_NEAR(*g.olympic_minutes, (34.0 + 65.0) / 2, 1e-9);
  // A fifth failure: no score.
  WriteFile(g.location / "result_0.txt", RunLogText("unet3d", 0, 30, "aborted", 1));
  ImportResult again = Import(options);
  EXPECT_FALSE(again.groups[0].olympic_minutes.has_value());
}

TEST(ImporterTest, RulesetComesFromTheRoundInThePathAndIsNeverGuessed) {
  TempDir dir;
  // SSD-ResNet34 logs of the v1.x rules end in success at mAP 0.23.
  auto ssd_log = [](const std::string& ruleset, int seed, const std::string& final_map, const std::string& status) {
    std::string log = RequiredKeys(ruleset, "ssd", 900) + MllogRecord(1000, "submission_benchmark", "\"ssd\"") +
                      MllogRecord(1001, "seed", std::to_string(seed)) + MllogRecord(1002, "global_batch_size", "256") +
                      MllogRecord(2000, "run_start", "null");
    log += MllogRecord(62000, "eval_accuracy", "0.15", "{\"epoch_num\": 1}");
    log += MllogRecord(122000, "eval_accuracy", final_map, "{\"epoch_num\": 2}");
    return log + MllogRecord(123000, "run_stop", "null", "{\"status\": \"" + status + "\"}");
  };
  auto write_ssd = [&](const fs::path& folder, const std::string& ruleset) {
    fs::create_directories(folder);
    WriteFile(folder / "result_0.txt", ssd_log(ruleset, 1, "0.2312", "success"));
    WriteFile(folder / "result_1.txt", ssd_log(ruleset, 2, "0.2305", "success"));
    WriteFile(folder / "result_2.txt", ssd_log(ruleset, 3, "0.2", "aborted"));
  };
  // No round in the path: "ssd" is in 0.7.0 ... 4.1.0, and evalsuite refuses to pick one.
  write_ssd(dir / "plain" / "results" / "s" / "ssd", "1.0.0");
  ImportOptions options;
  options.paths = {dir / "plain"};
  ImportResult refused = Import(options);
  EXPECT_TRUE(refused.groups.empty());
  ASSERT_EQ(refused.errors.size(), 1u);
  EXPECT_NE(refused.errors[0].find("benchmark \"ssd\""), std::string::npos) << refused.errors[0];
  EXPECT_NE(refused.errors[0].find("0.7.0, 1.0.0, 1.1.0, 2.0.0, 2.1.0, 3.0.0, 3.1.0, 4.0.0, 4.1.0"), std::string::npos)
      << refused.errors[0];
  EXPECT_NE(refused.errors[0].find("--ruleset"), std::string::npos) << refused.errors[0];

  // The round from the folder name: v1.0's SSD target 0.23, both successes count.
  write_ssd(dir / "training_results_v1.0" / "ACME" / "results" / "s" / "ssd", "1.0.0");
  options.paths = {dir / "training_results_v1.0"};
  ImportResult v1 = Import(options);
  const ImportedGroup* g1 = FindGroup(v1, "ssd");
  ASSERT_NE(g1, nullptr);
  EXPECT_EQ(g1->details["ruleset"], "1.0.0");
  EXPECT_EQ(g1->details["ruleset_source"], "folder name");
  EXPECT_DOUBLE_EQ(*g1->threshold, 0.23);
  EXPECT_EQ(g1->converged, 2u);
  EXPECT_EQ(g1->details["run_details"][2]["status"], "dropped");  // aborted, and never reaches the target

  // A folder named "v2.1": RetinaNet's 0.34, which the official checker requires of some eval_accuracy, so the
  // v1.x logs do not count, and the rule, file and line are named.
  write_ssd(dir / "v2.1" / "results" / "s" / "ssd", "2.1.0");
  options.paths = {dir / "v2.1"};
  ImportResult v21 = Import(options);
  const ImportedGroup* g = FindGroup(v21, "ssd");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->details["ruleset"], "2.1.0");
  EXPECT_DOUBLE_EQ(*g->threshold, 0.34);
  EXPECT_EQ(g->converged, 0u);
  const nlohmann::json& details = g->details["run_details"];
  EXPECT_EQ(details[0]["status"], "dropped");
  EXPECT_NE(details[1]["reason"].get<std::string>().find("result_1.txt:"), std::string::npos) << details[1];
  EXPECT_NE(details[1]["reason"].get<std::string>().find("eval_accuracy >= 0.34"), std::string::npos) << details[1];
  EXPECT_EQ(g->runs[0].log.status, analysis::EndedAs::kFailed);

  // --ruleset wins over the path.
  options.ruleset = "1.0.0";
  const ImportResult forced = Import(options);
  EXPECT_EQ(FindGroup(forced, "ssd")->details["ruleset_source"], "--ruleset");
  EXPECT_DOUBLE_EQ(*FindGroup(forced, "ssd")->threshold, 0.23);

  // --threshold still decides the stored target when given.
  options.threshold = 0.5;
  const ImportResult given = Import(options);
  EXPECT_DOUBLE_EQ(*FindGroup(given, "ssd")->threshold, 0.5);
  EXPECT_EQ(FindGroup(given, "ssd")->details["threshold_source"], "--threshold");

  // A benchmark the round does not name: the target is inferred from the runs that ended in success.
  const fs::path llm = dir / "v5.1" / "results" / "s" / "llm";
  fs::create_directories(llm);
  WriteFile(llm / "result_0.txt", RunLogText("llm", 1000000, 8.5, "success", 1, 256, "0.71"));
  WriteFile(llm / "result_1.txt", RunLogText("llm", 2000000, 9.5, "success", 2, 256, "0.7"));
  options = ImportOptions();
  options.paths = {dir / "v5.1"};
  ImportResult result = Import(options);
  const ImportedGroup* unknown = FindGroup(result, "llm");
  ASSERT_NE(unknown, nullptr);
  ASSERT_TRUE(unknown->threshold.has_value());
  EXPECT_DOUBLE_EQ(*unknown->threshold, 0.7);
  EXPECT_EQ(unknown->details["threshold_source"], "inferred from run_stop success");
  EXPECT_EQ(unknown->details["rcp"]["verdict"], "n/a");
  // With it, TTA from the curve is the official time: the first evaluation at the target is the last one.
  for (std::size_t i = 0; i < 2; ++i) {
    std::vector<stats::CurvePoint> curve;
    for (const runlog::EvalPoint& p : unknown->runs[i].log.points) curve.push_back({p.train_seconds, p.metric});
    const std::optional<double> tta = stats::TimeToTarget(curve, *unknown->threshold);
    ASSERT_TRUE(tta.has_value());
    EXPECT_NEAR(*tta / 60.0, (i == 0 ? 8.5 : 9.5) - 1.0 / 60, 1e-9);  // the last evaluation, 1 s before run_stop
  }
}

TEST(ImporterTest, ThresholdOverrideRecomputesMlperfTta) {
  TempDir dir;
  MakeBenchmark(dir.path(), "s", "resnet", {{10.5, "success"}, {12.5, "success"}, {20.5, "aborted"}});
  ImportOptions options;
  options.ruleset = "3.0.0";
  options.paths = {dir.path()};
  options.threshold = 0.53;  // 0.5 + 0.01 * 3: reached at the third eval, 3 minutes after run_start
  ImportResult result = Import(options);
  const ImportedGroup& g = result.groups[0];
  ASSERT_EQ(g.runs.size(), 3u);
  EXPECT_EQ(g.runs[0].tta_minutes, 3.0);
  EXPECT_EQ(g.runs[1].tta_minutes, 3.0);
  EXPECT_EQ(g.runs[2].tta_minutes, 3.0);  // the aborted run's curve crossed the lower target too
  EXPECT_EQ(g.runs[2].log.status, analysis::EndedAs::kFailed);
}

// A folder walk takes a .tsv for a DAWNBench entry only where its header names the "hours" column: a table of
// another kind beside the logs (framework_logs/SOURCES.tsv) is not a run and not an error.
TEST(ImporterTest, ATsvThatIsNoDawnbenchEntryIsPassedOver) {
  TempDir dir;
  const fs::path train = dir / "dawn" / "CIFAR10" / "train";
  fs::create_directories(train);
  WriteFile(train / "net.tsv", "epoch\thours\ttop1Accuracy\n1\t0.1\t90\n2\t0.2\t95\n");
  WriteFile(dir / "dawn" / "SOURCES.tsv", "kind\trepo\tcommit\nhf\ta/b\tc0ffee\n");
  ImportOptions options;
  options.paths = {dir / "dawn"};
  options.threshold = 94;
  const ImportResult r = Import(options);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front());
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].format, "dawnbench");
}

TEST(ImporterTest, DawnbenchEntryWithCostAndJsonShape) {
  TempDir dir;
  const fs::path train = dir / "dawn" / "CIFAR10" / "train";
  fs::create_directories(train);
  WriteFile(train / "me_resnet9_v100_pytorch.tsv",
            "\xEF\xBB\xBFtop1Accuracy\tepoch\thours\r\n50\t1\t0.1\r\n\r\n94.0\t2\t0.2\r\n95\t3\t0.3");
  WriteFile(train / "me_resnet9_v100_pytorch.json",
            "{\"author\": \"Me\", \"model\": \"ResNet 9\", \"hardware\": \"1 V100\", \"framework\": \"PyTorch\", "
            "\"costPerHour\": 3.06}");
  ImportOptions options;
  options.paths = {dir / "dawn"};
  ImportResult result = Import(options);
  ASSERT_EQ(result.groups.size(), 1u);
  const ImportedGroup& g = result.groups[0];
  EXPECT_EQ(g.source, "dawn/CIFAR10/train/me_resnet9_v100_pytorch.tsv");
  EXPECT_EQ(g.tta_hours, 0.2);
  nlohmann::json json = ToJson(result);
  EXPECT_EQ(json["schema_version"], kImportJsonSchemaVersion);
  const nlohmann::json& group = json["groups"][0];
  for (const char* key : {"source", "format", "benchmark", "system", "runs", "converged", "tta_minutes",
                          "olympic_minutes", "cov", "metric", "threshold", "tta_hours"}) {
    EXPECT_TRUE(group.contains(key)) << key;
  }
  EXPECT_EQ(group["format"], "dawnbench");
  EXPECT_EQ(group["benchmark"], "CIFAR10");
  EXPECT_EQ(group["metric"], "top1Accuracy");
  EXPECT_EQ(group["threshold"], 94.0);
  EXPECT_EQ(group["runs"], 1);
  EXPECT_EQ(group["converged"], 1);
  EXPECT_DOUBLE_EQ(group["tta_minutes"][0].get<double>(), 12.0);
  EXPECT_TRUE(group["olympic_minutes"].is_null());
  EXPECT_TRUE(group["cov"].is_null());
  EXPECT_EQ(group["author"], "Me");
  EXPECT_DOUBLE_EQ(group["cost"].get<double>(), 0.2 * 3.06);
  // --threshold overrides the task's default.
  options.threshold = 95;
  EXPECT_EQ(Import(options).groups[0].tta_hours, 0.3);
}

TEST(ImporterTest, UnreadableFileIsAnErrorAndTheRestIsImported) {
  TempDir dir;
  const fs::path bench = MakeBenchmark(dir.path(), "s", "resnet", {{10, "success"}, {11, "success"}});
  fs::create_symlink(dir / "nowhere.txt", bench / "result_9.txt");  // a result file that cannot be read
  ImportOptions options;
  options.paths = {dir.path(), dir / "does-not-exist"};
  options.ruleset = "3.0.0";
  ImportResult result = Import(options);
  ASSERT_EQ(result.errors.size(), 2u) << result.errors.back();
  EXPECT_NE(result.errors[0].find("result_9.txt"), std::string::npos);
  EXPECT_NE(result.errors[1].find("does-not-exist"), std::string::npos);
  ASSERT_EQ(result.groups.size(), 1u);
  EXPECT_EQ(result.groups[0].runs.size(), 2u);
  EXPECT_FALSE(result.groups[0].olympic_minutes.has_value());  // 2 runs cannot be olympic-scored
}

TEST(ImporterTest, WritesOneImportStudyWithSecondsAndFractions) {
  TempDir dir;
  MakeBenchmark(dir / "in", "sysA", "resnet", {{10.5, "success"}, {11.5, "success"}, {12.5, "aborted"}});
  const fs::path train = dir / "in" / "ImageNet" / "train";
  fs::create_directories(train);
  WriteFile(train / "e.tsv", "epoch\thours\ttop1Accuracy\ttop5Accuracy\n1\t0.5\t70\t92\n2\t1.0\t75\t93.5\n");
  ImportOptions options;
  options.paths = {dir / "in"};
  options.ruleset = "3.0.0";
  ImportResult result = Import(options);
  ASSERT_EQ(result.groups.size(), 2u);
  auto store = store::RunStore::Open(dir / "s.db");
  std::string name;
  const int64_t id =
      WriteToStore(*store, result, "import test", {{"command", "import"}}, nlohmann::json::object(), &name);
  EXPECT_EQ(name, "import test");
  WriteToStore(*store, result, "import test", {{"command", "import"}}, nlohmann::json::object(), &name);
  EXPECT_EQ(name, "import test #2");  // study names stay unique
  auto study = store->FindStudy("import test");
  ASSERT_TRUE(study.has_value());
  EXPECT_EQ(study->kind, "import");
  auto entries = store->LoadEntries(id);
  ASSERT_EQ(entries.size(), 2u);
  std::map<std::string, store::EntryRecord> by_name;
  for (const auto& e : entries) by_name[e.name] = e;
  ASSERT_TRUE(by_name.count("sysA/resnet"));
  EXPECT_EQ(by_name["sysA/resnet"].source, "mlperf");
  EXPECT_EQ(by_name["sysA/resnet"].time_unit, "seconds");
  EXPECT_DOUBLE_EQ(by_name["sysA/resnet"].threshold, 0.759);
  ASSERT_TRUE(by_name.count("ImageNet/e"));
  EXPECT_DOUBLE_EQ(by_name["ImageNet/e"].threshold, 0.93);  // 93 % stored as a fraction
  auto runs = store->LoadRuns(id);
  ASSERT_EQ(runs.size(), 4u);
  std::size_t reached = 0;
  for (const auto& run : runs) {
    if (run.entry == "sysA/resnet" && run.run_index == 0) {
      EXPECT_DOUBLE_EQ(run.log.train_seconds, 630.0);
      ASSERT_FALSE(run.log.points.empty());
      EXPECT_DOUBLE_EQ(run.log.points[0].train_seconds, 60.0);
      EXPECT_EQ(run.seeds.other.value("seed", 0), 1);  // MLPerf's own name, kept as it came
    }
    if (run.entry == "ImageNet/e") {
      ASSERT_EQ(run.log.points.size(), 2u);
      EXPECT_DOUBLE_EQ(run.log.points[1].train_seconds, 3600.0);
      EXPECT_DOUBLE_EQ(run.log.points[1].metric, 0.935);
    }
    if (run.log.status == analysis::EndedAs::kReached) ++reached;
  }
  EXPECT_EQ(reached, 3u);
}

TEST(ImporterTest, JsonlRunLogsGroupByFolderWithTheirThreshold) {
  TempDir dir;
  fs::create_directories(dir / "study" / "baseline");
  for (int run = 0; run < 3; ++run) {
    runlog::JsonlRunLogWriter writer(dir / "study" / "baseline" / ("run_" + std::to_string(run) + ".jsonl"));
    writer.WriteHeader({{"entry", "baseline"}, {"metric", "val_top1"}, {"threshold", 0.9}, {"seeds", {{"run", run}}}});
    for (int epoch = 1; epoch <= 3; ++epoch) {
      runlog::EvalPoint p;
      p.epoch = epoch;
      p.train_seconds = 60.0 * epoch * (1 + run);
      p.wall_seconds = p.train_seconds + 1;
      p.metric = 0.8 + 0.05 * epoch;  // 0.9 at epoch 2
      writer.WriteEval(p);
    }
    writer.WriteEnd(analysis::EndedAs::kReached, 120.0 * (1 + run), 3, 180.0 * (1 + run), 181.0 * (1 + run));
  }
  ImportOptions options;
  options.paths = {dir / "study"};
  ImportResult result = Import(options);
  ASSERT_EQ(result.groups.size(), 1u);
  const ImportedGroup& g = result.groups[0];
  EXPECT_EQ(g.format, "jsonl");
  EXPECT_EQ(g.benchmark, "baseline");
  ASSERT_EQ(g.runs.size(), 3u);
  EXPECT_NEAR(*g.runs[0].tta_minutes, 2.0, 1e-9);
  EXPECT_NEAR(*g.runs[2].tta_minutes, 6.0, 1e-9);
  ASSERT_TRUE(g.olympic_minutes.has_value());
  EXPECT_NEAR(*g.olympic_minutes, 4.0, 1e-9);
  EXPECT_EQ(g.runs[1].seeds.value("run", -1), 1);
}

// Acceptance: every score in summary.csv whose logs are beside it is reproduced to a relative 1e-9.
TEST(ImporterTest, ReproducesSummaryCsvScores) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  const fs::path org = shared / "mlperf" / "training_results_v2.0" / "GIGABYTE";
  if (!fs::exists(org / "summary.csv")) GTEST_SKIP() << "no GIGABYTE summary.csv";
  ImportOptions options;
  options.paths = {org};
  ImportResult result = Import(options);
  EXPECT_TRUE(result.errors.empty());

  std::ifstream in(org / "summary.csv");
  std::string line;
  std::getline(in, line);
  auto split = [](const std::string& s) {
    std::vector<std::string> fields;
    std::stringstream ss(s);
    std::string f;
    while (std::getline(ss, f, ',')) fields.push_back(f);
    if (!s.empty() && s.back() == ',') fields.push_back("");
    return fields;
  };
  const std::vector<std::string> header = split(line);
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  const std::vector<std::string> benchmarks = {"bert", "dlrm", "maskrcnn", "minigo", "resnet", "ssd", "rnnt", "unet3d"};
  int compared = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> row = split(line);
    std::string framework = row[column["framework"]];
    for (char& c : framework) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string system_folder = row[column["system"]] + "_" + framework;
    for (const std::string& bench : benchmarks) {
      const std::string& cell = row[column[bench]];
      if (cell.empty()) continue;
      const std::string source = "GIGABYTE/results/" + system_folder + "/" + bench;
      const ImportedGroup* group = nullptr;
      for (const auto& g : result.groups) {
        if (g.source == source) group = &g;
      }
      if (!fs::exists(org / "results" / system_folder / bench)) continue;  // the score's logs are not in shared/
      ASSERT_NE(group, nullptr) << source;
      ASSERT_TRUE(group->olympic_minutes.has_value()) << source;
      const double expected = std::stod(cell);
      EXPECT_LE(std::fabs(*group->olympic_minutes - expected) / expected, 1e-9)
          << source << ": " << *group->olympic_minutes << " vs summary.csv " << cell;
      ++compared;
    }
  }
  EXPECT_GE(compared, 2);  // bert and resnet have their logs in shared/
}

// MLPerf folders are scored on several threads and joined in folder order: one thread and four give the same groups,
// warnings, errors, findings and notes, in the same order. An RCP file that cannot be read is needed by six folders
// and said once, as the first of them says it.
TEST(ImporterTest, FoldersScoreTheSameOnOneThreadAndOnFourAndABrokenRcpFileIsSaidOnce) {
  TempDir dir;
  const fs::path root = dir / "training_results_v3.0" / "ACME";
  for (int s = 1; s <= 6; ++s) {
    const std::string system = "sys" + std::to_string(s);
    std::vector<std::pair<double, std::string>> runs;
    for (int r = 0; r < 5; ++r) runs.push_back({30.0 + s + r, r == 4 && s % 2 == 0 ? "aborted" : "success"});
    MakeBenchmark(root, system, "resnet", runs);
    MakeBenchmark(root, system, "bert", {{20.0 + s, "success"}, {21.0, "success"}});
  }
  WriteFile(dir / "rcp" / "rcps_resnet.json", "{not json");
  auto import = [&](unsigned jobs) {
    ImportOptions options;
    options.paths = {dir / "training_results_v3.0"};
    options.rcp = dir / "rcp";
    options.threshold = 60;  // a percentage: read as 0.60, with a note
    options.jobs = jobs;
    return Import(options);
  };
  const ImportResult one = import(1);
  const ImportResult four = import(4);
  ASSERT_EQ(one.groups.size(), 12u);
  EXPECT_EQ(ToJson(four).dump(), ToJson(one).dump());
  EXPECT_EQ(four.warnings, one.warnings);
  EXPECT_EQ(four.errors, one.errors);
  EXPECT_EQ(four.compliance, one.compliance);
  EXPECT_EQ(four.notes, one.notes);
  EXPECT_FALSE(one.notes.empty());  // the --threshold note, once
  for (const ImportResult* result : {&one, &four}) {
    const auto said = std::count_if(result->errors.begin(), result->errors.end(), [](const std::string& e) {
      return e.find("rcps_resnet.json") != std::string::npos;
    });
    EXPECT_EQ(said, 1) << ::testing::PrintToString(result->errors);
  }
}

}  // namespace
}  // namespace evalsuite::importer
