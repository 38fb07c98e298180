// The MLPerf facts (analysis/mlperf_facts.h): read once from the extra `evalsuite import` stores, as the importer's
// summary, `study show` and the report read them.
#include "analysis/mlperf_facts.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace evalsuite::analysis
