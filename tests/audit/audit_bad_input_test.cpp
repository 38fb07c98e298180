// What the audit says where it cannot compute something: a benchmark with one submission, a submission with fewer
// runs than the rules ask, an RCP file missing or malformed, a batch size above every reference, a submission with
// no official score. Each is stated with its reason; nothing else of the audit is lost and nothing crashes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/mlperf_audit.h"
#include "importer/mlperf_audit_inputs.h"
#include "reports/mlperf_audit_text.h"
#include "tests/support/test_support.h"

namespace evalsuite::importer {
namespace {

using nlohmann::json;

// A resnet submission of ruleset 4.0.0 as the import stores it: `runs` successful runs near 36 epochs.
json ResnetDetails(const std::string& system, std::size_t runs, double minutes_per_epoch, double batch = 3264) {
  json details = {{"source", "org/results/" + system + "/resnet"},
                  {"benchmark", "resnet"},
                  {"system", system},
                  {"ruleset", "4.0.0"},
                  {"division", "closed"},
                  {"official_target", true},
                  {"global_batch_size", batch},
                  {"drop_each_side", 1},
                  {"rcp", {{"rcp_file", "built-in training_4.0.0/rcps_resnet.json"}, {"rcp_pass", "pruned"}}}};
  json run_details = json::array();
  std::vector<double> minutes;
  for (std::size_t i = 0; i < runs; ++i) {
    const double epochs = 34 + static_cast<double>(i % 4);
    run_details.push_back(
        {{"status", "success"}, {"time_to_train_minutes", epochs * minutes_per_epoch}, {"convergence", epochs}});
    minutes.push_back(epochs * minutes_per_epoch);
  }
  details["run_details"] = run_details;
  std::vector<double> copy = minutes;
  const double score = copy.size() > 2 ? analysis::OlympicOfValues(copy, 1) : 0;
  details["official"] = copy.size() > 2 ? json{{"official_minutes", score}, {"raw_minutes", score}}
                                        : json{{"official_minutes", nullptr}, {"raw_minutes", nullptr}};
  return details;
}

analysis::AuditReport AuditOf(const std::vector<json>& details) {
  AuditRcpFiles rcp_files;
  std::vector<analysis::AuditInput> inputs;
  for (const json& d : details) inputs.push_back(AuditInputOf(d, rcp_files));
  analysis::AuditSettings settings;
  settings.rerun.draws = 500;
  settings.selection.draws = 500;
  settings.selection.honest = 100;
  return analysis::AuditSubmissions(inputs, settings);
}

const analysis::AuditedSubmission& Find(const analysis::AuditReport& report, const std::string& system) {
  for (const analysis::AuditGroup& g : report.groups) {
    for (const auto* list : {&g.ranked, &g.unranked}) {
      for (const analysis::AuditedSubmission& a : *list) {
        if (a.input.submission.system == system) return a;
      }
    }
  }
  throw std::runtime_error("no submission " + system);
}

TEST(AuditBadInputTest, OneSubmissionHasARangeAndNoRanking) {
  const analysis::AuditReport report = AuditOf({ResnetDetails("only", 5, 0.3)});
  ASSERT_EQ(report.groups.size(), 1u);
  EXPECT_TRUE(report.groups[0].pairs.empty());
  ASSERT_EQ(report.groups[0].notes.size(), 1u);
  EXPECT_EQ(report.groups[0].notes[0], "1 submission(s) with an official score: no ranking to test");
  const analysis::AuditedSubmission& a = Find(report, "only");
  EXPECT_TRUE(a.rerun.computed);
  EXPECT_EQ(a.rerun.method, "reference");
  EXPECT_TRUE(a.selection.has_value());
  EXPECT_NE(reports::AuditText(report).find("no ranking to test"), std::string::npos);
}

TEST(AuditBadInputTest, FewerRunsThanTheRuleAreSaidAndSimulatedAtTheRulesCount) {
  const analysis::AuditReport report = AuditOf({ResnetDetails("few", 3, 0.3), ResnetDetails("full", 5, 0.31)});
  const analysis::AuditedSubmission& few = Find(report, "few");
  ASSERT_FALSE(few.input.notes.empty());
  EXPECT_EQ(few.input.notes[0], "3 counted run(s), the rules ask for 5");
  EXPECT_TRUE(few.rerun.computed);
  EXPECT_EQ(few.rerun.runs, 5u);
  ASSERT_EQ(report.groups[0].pairs.size(), 1u);
  EXPECT_TRUE(report.groups[0].pairs[0].probability.has_value());
}

TEST(AuditBadInputTest, MissingOrMalformedRcpFallsBackToOwnRunsAndSaysWhy) {
  testing::TempDir dir;
  testing::WriteFile(dir / "rcps_resnet.json", "{\"resnet_ref_3264\": {\"Benchmark\": \"resnet\"");
  json missing = ResnetDetails("missing", 5, 0.3);
  missing["rcp"]["rcp_file"] = (dir / "absent/rcps_resnet.json").string();
  json malformed = ResnetDetails("malformed", 5, 0.32);
  malformed["rcp"]["rcp_file"] = (dir / "rcps_resnet.json").string();
  const analysis::AuditReport report = AuditOf({missing, malformed, ResnetDetails("fine", 5, 0.34)});
  for (const std::string system : {"missing", "malformed"}) {
    const analysis::AuditedSubmission& a = Find(report, system);
    EXPECT_FALSE(a.input.submission.reference.has_value());
    EXPECT_NE(a.input.submission.no_reference.find("the RCP file cannot be read"), std::string::npos)
        << a.input.submission.no_reference;
    EXPECT_TRUE(a.rerun.computed);
    EXPECT_EQ(a.rerun.method, "own runs");
    EXPECT_FALSE(a.rerun.caveat.empty());
    EXPECT_FALSE(a.selection.has_value());
    EXPECT_NE(a.selection_why_not.find("the RCP file cannot be read"), std::string::npos);
  }
  // The submission beside them keeps its reference.
  EXPECT_EQ(Find(report, "fine").rerun.method, "reference");
  EXPECT_EQ(report.groups[0].pairs.size(), 2u);
}

TEST(AuditBadInputTest, BatchAboveEveryReferenceIsAMissingRcp) {
  const analysis::AuditReport report = AuditOf({ResnetDetails("huge", 5, 0.3, 1e6)});
  const analysis::AuditedSubmission& a = Find(report, "huge");
  EXPECT_NE(a.input.submission.no_reference.find("no RCP at batch size 1000000"), std::string::npos)
      << a.input.submission.no_reference;
  EXPECT_EQ(a.rerun.method, "own runs");
}

TEST(AuditBadInputTest, InterpolatedBatchMovesBothNeighboursRunsToTheCheckersPoint) {
  const analysis::AuditReport report = AuditOf({ResnetDetails("between", 5, 0.3, 6000)});
  const analysis::RerunSubmission& s = Find(report, "between").input.submission;
  ASSERT_TRUE(s.reference.has_value()) << s.no_reference;
  EXPECT_EQ(s.reference->name, "resnet_interp_6000");
  // The neighbours after the checker's pruning: 3264 (15 runs) and 8192 (10 runs); 4096 is pruned (its mean is above
  // the interpolation of its neighbours).
  EXPECT_EQ(s.reference->pool.size(), 25u);
}

TEST(AuditBadInputTest, NoOfficialScoreIsUnrankedWithItsReason) {
  // One run with a reference still has a rerun range (the time per epoch of that run); one run without one has none.
  const analysis::AuditReport report =
      AuditOf({ResnetDetails("none", 1, 0.3), ResnetDetails("alone", 1, 0.3, 1e6), ResnetDetails("one", 5, 0.3)});
  const analysis::AuditGroup& g = report.groups[0];
  ASSERT_EQ(g.unranked.size(), 2u);
  EXPECT_TRUE(Find(report, "none").rerun.computed);
  const analysis::AuditedSubmission& alone = Find(report, "alone");
  EXPECT_FALSE(alone.rerun.computed);
  EXPECT_NE(alone.rerun.why_not.find("1 successful run(s)"), std::string::npos) << alone.rerun.why_not;
  EXPECT_EQ(g.ranked.size(), 1u);
  const std::string text = reports::AuditText(report);
  EXPECT_NE(text.find("rerun range not computed"), std::string::npos);
  EXPECT_NE(text.find("no official score"), std::string::npos);
  const json j = json::parse(reports::AuditJson(report).dump());
  EXPECT_EQ(j["groups"][0]["submissions"].size(), 3u);
}

}  // namespace
}  // namespace evalsuite::importer
