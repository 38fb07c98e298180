// The MLPerf facts (analysis/mlperf_facts.h): read once from the extra `evalsuite import` stores, as the importer's
// summary, `study show` and the report read them, and written back by the one encode, key for key.
#include "analysis/mlperf_facts.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

// An entry's extra as the importer writes it for a v4.0 group (a store's entries.extra, parsed as the store parses
// it), with a run that did not count.
json ImportedExtra() {
  return json::parse(R"({"ruleset":"4.0.0","ruleset_source":"folder name","division":"closed",
    "global_batch_size":256,"log_format":"MLLOG",
    "throughput":{"interval":"run_start to run_stop","median_samples_per_second":12840.5,"method":"m","runs":5,
                  "withheld":null,"withheld_runs":0},
    "rcp":{"batch_size":256,"message":"RCP found","min_epochs":4.0,"norm_factor":1.0,"pass":true,
           "rcp_mean":4.0,"rcp_stdev":0.0,"reference":"ssd_ref_256","submission_mean_epochs":4.0,"verdict":"Pass"},
    "official":{"checker_minutes":6.07,"official_minutes":6.07,"published_scaling_factor":null,"raw_minutes":6.07},
    "run_details":[{"file":"result_0.txt","reason":null,"status":"success"},
                   {"file":"result_1.txt","reason":"no MLPerf log line","status":"failed"}]})");
}

TEST(MlperfFactsTest, EveryFactTheReadersShowIsRead) {
  const MlperfFacts facts = MlperfFactsFromJson(ImportedExtra());
  EXPECT_EQ(facts.ruleset, "4.0.0");
  EXPECT_EQ(facts.ruleset_source, "folder name");
  EXPECT_EQ(facts.division, "closed");
  EXPECT_EQ(facts.global_batch_size, 256.0);
  ASSERT_TRUE(facts.throughput);
  EXPECT_EQ(facts.throughput->runs, 5);
  EXPECT_EQ(facts.throughput->withheld_runs, 0);
  EXPECT_FALSE(facts.throughput->withheld);
  EXPECT_DOUBLE_EQ(facts.throughput->median_samples_per_second.value(), 12840.5);
  ASSERT_TRUE(facts.rcp);
  EXPECT_EQ(facts.rcp->verdict, "Pass");
  EXPECT_EQ(facts.rcp->reference, "ssd_ref_256");
  EXPECT_EQ(facts.rcp->submission_mean_epochs, 4.0);
  ASSERT_TRUE(facts.official);
  EXPECT_EQ(facts.official->official_minutes, 6.07);
  EXPECT_FALSE(facts.official->published_scaling_factor) << "null is absent";
  EXPECT_FALSE(facts.official->note);
  ASSERT_EQ(facts.run_details.size(), 2u);
  EXPECT_EQ(facts.run_details[1].status, "failed");
  EXPECT_EQ(facts.run_details[1].reason, "no MLPerf log line");
  EXPECT_FALSE(facts.run_details[0].reason);
}

TEST(MlperfFactsTest, AnEntryWithoutTheImportersBlocksHasNone) {
  const MlperfFacts facts = MlperfFactsFromJson(json::parse(R"({"ruleset":"4.0.0"})"));
  EXPECT_FALSE(facts.rcp);
  EXPECT_FALSE(facts.official);
  EXPECT_FALSE(facts.throughput);
  EXPECT_TRUE(facts.run_details.empty());
  EXPECT_FALSE(MlperfFactsFromJson(json()).ruleset) << "a null extra reads as nothing";
}

TEST(MlperfFactsTest, AFieldOfAnotherTypeIsAbsent) {
  json extra = ImportedExtra();
  extra["division"] = 3;
  extra["official"]["official_minutes"] = "6.07";
  extra["throughput"]["runs"] = 2.5;
  const MlperfFacts facts = MlperfFactsFromJson(extra);
  EXPECT_FALSE(facts.division);
  EXPECT_FALSE(facts.official->official_minutes);
  EXPECT_FALSE(facts.throughput->runs);
}

// Every field set, the optional blocks present, and the nulls the importer writes beside them.
MlperfFacts EveryFact() {
  MlperfFacts x;
  x.ruleset = "4.1.0";
  x.ruleset_source = "folder name";
  x.division = "closed";
  x.log_format = "MLLOG";
  x.system_description = "Dell/systems/XE9680x8H100-SXM-80GB.json";
  x.files = {"result_0.txt", "result_1.txt"};
  x.global_batch_size = 8;
  x.drop_each_side = 1;
  x.threshold_shown = "eval_accuracy <= 0.925";
  x.official_target = true;
  x.threshold_source = "rules";
  x.progress_unit = "samples";
  x.compliance_applied = false;
  x.target = MlperfTargetFacts{"eval_accuracy", 0.925, "lower is better", "samples", 10};
  x.throughput = MlperfThroughputFacts{1234.5, 2, "train_samples", "run_start to run_stop", 1, "result_1.txt: why"};
  MlperfRcpFacts rcp;
  rcp.pass = true;
  rcp.verdict = "Pass";
  rcp.message = "RCP found";
  rcp.batch_size = 8;
  rcp.reference = "llama2_70b_lora_ref_8";
  rcp.rcp_mean = 3.5;
  rcp.rcp_stdev = 0.25;
  rcp.min_epochs = 3.25;
  rcp.max_speedup = 1.0769;
  rcp.submission_mean_epochs = 3.3;
  rcp.norm_factor = 1.06;
  rcp.rcp_file = "built-in training_4.1.0/rcps_llama2_70b_lora.json";
  rcp.rcp_pass = "pruned";
  x.rcp = rcp;
  MlperfOfficialFacts official;
  official.raw_minutes = 25.5;
  official.published_scaling_factor = 1.0;
  official.checker_scaling_factor = 1.06;
  official.rules_unapplied = true;  // held, and null: no score counted under the rules reported
  official.note = "today's rules drop 1 run(s)";
  x.official = official;
  x.energy = MlperfEnergyFacts{4.5e8, "joules", {{"result_0.txt", 4.4e8}, {"result_1.txt", 4.6e8}}, 1.0};
  x.run_details = {{"result_0.txt", "success", 25.0, 3.25, 1e6, 650.5, "train_samples", std::nullopt},
                   {"result_1.txt", "failed", std::nullopt, std::nullopt, std::nullopt, std::nullopt, "withheld",
                    "no "
                    "run_stop"}};
  x.compliance = {{"org/results/sys/bench", std::nullopt, "run_count", "1 result file(s)", false},
                  {"result_1.txt", 12, "run_stop", "no run_stop", true}};
  x.stored = MlperfStoredEntryFacts{"org/results/sys/bench", "llama2_70b_lora", "sys", std::nullopt};
  return x;
}

TEST(MlperfFactsTest, TheEncodeIsTheDecodesInverse) {
  const MlperfFacts x = EveryFact();
  EXPECT_TRUE(MlperfFactsFromJson(MlperfFactsToJson(x)) == x);
  // The fields a decode must keep apart: a block the record lacks stays absent, and a null it holds stays null.
  MlperfFacts bare;
  bare.ruleset = "0.6.0";
  const json encoded = MlperfFactsToJson(bare);
  EXPECT_FALSE(encoded.contains("target")) << encoded;
  EXPECT_FALSE(encoded.contains("energy")) << encoded;
  EXPECT_FALSE(encoded.contains("source")) << "only the store's copy names its source";
  EXPECT_TRUE(encoded.at("division").is_null()) << "a field the importer always writes is null when absent";
  EXPECT_TRUE(MlperfFactsFromJson(encoded) == bare);
  // Each field counts in the comparison the round trip rests on.
  MlperfFacts other = x;
  other.run_details[1].reason = "another";
  EXPECT_FALSE(other == x);
  other = x;
  other.official->rules_unapplied = false;
  EXPECT_FALSE(other == x);
}

TEST(MlperfFactsTest, AWholeBatchSizeIsWrittenAsAnInteger) {
  MlperfFacts x;
  x.global_batch_size = 3264;
  x.rcp = MlperfRcpFacts{};
  x.rcp->batch_size = 3264;
  EXPECT_EQ(MlperfFactsToJson(x).at("global_batch_size").dump(), "3264");
  EXPECT_EQ(MlperfFactsToJson(x).at("rcp").at("batch_size").dump(), "3264");
  x.global_batch_size = 0.5;
  EXPECT_EQ(MlperfFactsToJson(x).at("global_batch_size").dump(), "0.5");
}

// The stored extras (entries.extra, as the store wrote them) of the MLPerf entries of a store.
std::vector<std::string> StoredMlperfExtras(const std::string& db) {
  std::vector<std::string> out;
  sqlite3* handle = nullptr;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(handle);
    return out;
  }
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(handle, "SELECT extra FROM entries WHERE source = 'mlperf' ORDER BY rowid", -1, &statement,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(statement) == SQLITE_ROW) {
      out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
    }
  }
  sqlite3_finalize(statement);
  sqlite3_close(handle);
  return out;
}

// A real round imported by the built binary: the v4.1 folders (one with power logs, so an energy block) and v1.1
// under --compliance report (a score under rules reported, not applied). Each stored record, decoded and encoded
// again, is the same text byte for byte: the struct holds everything the importer writes.
TEST(MlperfFactsTest, AStoredRecordEncodesBackByteForByte) {
  EVALSUITE_REQUIRE_SHARED_DATA(shared);
  if (std::string(EVALSUITE_BINARY).empty()) GTEST_SKIP() << "the light build has no evalsuite binary";
  testing::TempDir dir;
  const std::string db = (dir / "ml.db").string();
  testing::RunEvalsuite({"import", (shared / "mlperf" / "training_results_v4.1").string(), "--store", db});
  testing::RunEvalsuite(
      {"import", (shared / "mlperf" / "training_results_v1.1").string(), "--store", db, "--compliance", "report"});
  const std::vector<std::string> extras = StoredMlperfExtras(db);
  ASSERT_EQ(extras.size(), 12u) << "six v4.1 and six v1.1 entries";
  bool energy = false, unapplied = false;
  for (const std::string& stored : extras) {
    const MlperfFacts facts = MlperfFactsFromJson(json::parse(stored));
    EXPECT_EQ(MlperfFactsToJson(facts).dump(), stored);
    energy = energy || facts.energy.has_value();
    unapplied = unapplied || (facts.official && facts.official->rules_unapplied);
    ASSERT_TRUE(facts.stored);
    EXPECT_TRUE(facts.stored->source && facts.stored->benchmark && facts.stored->system);
  }
  EXPECT_TRUE(energy) << "v4.1's llama2_70b_lora has power logs";
  EXPECT_TRUE(unapplied) << "v1.1 under --compliance report has runs today's rules drop";
}

}  // namespace
}  // namespace evalsuite::analysis
