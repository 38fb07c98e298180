// The report model from a small synthetic input: header keys, verdicts, the Tables 2-3 rows, raw runs with
// nulls for runs that did not reach the target, statistics at the target and the sensitivity grid.
#include <gtest/gtest.h>

#include <limits>

#include "common/error.h"
#include "reports/given_sections.h"
#include "reports/report.h"
#include "tests/reports/report_fixture.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

class ReportModelTest : public ::testing::Test {
 protected:
  const ReportModel report_ = BuildStabilityReport(testing::SyntheticInput());
  json model_ = ToJson(report_);
  const json& Entry(int i) { return model_["entries"][i]; }
};

TEST_F(ReportModelTest, HeaderCarriesSchemaEnvironmentPlanAndRule) {
  EXPECT_EQ(model_["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(model_["title"], "synthetic stability study");
  EXPECT_EQ(model_["generated_at"].get<std::string>().size(), 20u);  // 2026-01-02T03:04:05Z
  EXPECT_EQ(model_["environment"]["host"], "testhost");
  EXPECT_EQ(model_["plan"]["base_seed"], 42);
  EXPECT_DOUBLE_EQ(model_["rule"]["max_cov_upper"].get<double>(), 0.10);
  EXPECT_EQ(model_["rule"]["min_reached"], 3);
  EXPECT_NE(model_["rule"]["statement"].get<std::string>().find("at most 10%"), std::string::npos);
}

TEST_F(ReportModelTest, EmptyEnvironmentIsDescribedFromTheMachine) {
  StabilityReportInput input;
  const ReportModel model_report = BuildStabilityReport(input);
  json model = ToJson(model_report);
  EXPECT_TRUE(model["environment"].contains("cores"));
  EXPECT_TRUE(model["verdicts"].empty());
}

TEST_F(ReportModelTest, VerdictsJudgeEveryEntryWithOneLinePerRule) {
  const json& verdicts = model_["verdicts"];
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0]["entry"], "fast");
  EXPECT_EQ(verdicts[0]["stable"], false);
  // 4/5 reached and CoV 7.9%: neither interval shows a rule broken, so five runs cannot tell.
  EXPECT_EQ(verdicts[0]["result"], "INCONCLUSIVE");
  EXPECT_EQ(verdicts[0]["runs"], 5);  // the incomplete run is not counted
  EXPECT_EQ(verdicts[0]["reached"], 4);
  ASSERT_EQ(verdicts[0]["reasons"].size(), 4u);
  EXPECT_TRUE(verdicts[0]["reached_runs_needed"].is_number());
  EXPECT_NE(verdicts[0]["reasons"][1].get<std::string>().find("hit rate 4/5"), std::string::npos);
  EXPECT_NE(verdicts[0]["reasons"][1].get<std::string>().find("can't tell"), std::string::npos);
  EXPECT_EQ(verdicts[0]["criteria"][1]["outcome"], "can't tell");

  EXPECT_EQ(verdicts[1]["entry"], "slow");
  EXPECT_EQ(verdicts[1]["stable"], true);
  EXPECT_EQ(verdicts[1]["result"], "STABLE");
  for (const json& reason : verdicts[1]["reasons"]) {
    EXPECT_EQ(reason.get<std::string>().find("NOT"), std::string::npos) << reason;
  }
  EXPECT_EQ(verdicts[2]["result"], "NOT STABLE");  // 0/2: the hit rate's upper bound (84%) is below 90%
  EXPECT_TRUE(verdicts[2]["cov"].is_null());
  EXPECT_TRUE(verdicts[2]["cov_interval"].is_null());
}

TEST_F(ReportModelTest, TableRowsFollowTheDawnBenchTables) {
  const json& table = model_["table"];
  ASSERT_EQ(table.size(), 3u);
  const json& fast = table[0];
  EXPECT_EQ(fast["entry"], "fast");
  EXPECT_EQ(fast["runs"], 5);
  EXPECT_EQ(fast["reached"], 4);
  // TTA 100, 110, 120, 105: mean 108.75, s = 8.5391, CoV = 0.078520.
  EXPECT_NEAR(fast["cov"].get<double>(), 0.0785203, 1e-6);
  EXPECT_LT(fast["cov_lower"].get<double>(), 0.0785203);
  EXPECT_GT(fast["cov_upper"].get<double>(), 0.0785203);
  EXPECT_DOUBLE_EQ(fast["hit_rate"].get<double>(), 0.8);
  EXPECT_NEAR(fast["hit_rate_lower"].get<double>(), 0.283582, 1e-6);  // Clopper-Pearson 4/5
  EXPECT_NEAR(fast["hit_rate_upper"].get<double>(), 0.994949, 1e-6);
  // One run missed: the headline median is Kaplan-Meier's. statsmodels:
  // SurvfuncRight([100, 110, 120, 105, 150], [1, 1, 1, 1, 0]).quantile(0.5) = 110.0
  EXPECT_DOUBLE_EQ(fast["median_tta"].get<double>(), 110.0);
  EXPECT_EQ(fast["median_tta_basis"], "Kaplan-Meier");
  EXPECT_DOUBLE_EQ(fast["median_tta_reached"].get<double>(), 107.5);
  EXPECT_DOUBLE_EQ(table[1]["median_tta"].get<double>(), 200.0);  // every run reached: the plain median
  EXPECT_EQ(table[1]["median_tta_basis"], "all runs reached");
  EXPECT_EQ(table[2]["median_tta_basis"], "not reached (fewer than half the runs reached)");
  // Olympic: drop 100 (fastest) and the failure (slowest): mean of 105, 110, 120.
  EXPECT_NEAR(fast["olympic_mean"].get<double>(), 111.666667, 1e-5);
  // ERT: (100 + 110 + 120 + 105 + 150) / 4 successes.
  EXPECT_DOUBLE_EQ(fast["ert"].get<double>(), 146.25);
  EXPECT_EQ(fast["time_unit"], "seconds");

  const json& never = table[2];
  EXPECT_EQ(never["reached"], 0);
  for (const char* key : {"cov", "cov_lower", "cov_upper", "median_tta", "olympic_mean", "ert"}) {
    EXPECT_TRUE(never[key].is_null()) << key;
  }
  EXPECT_DOUBLE_EQ(never["hit_rate"].get<double>(), 0.0);
}

TEST_F(ReportModelTest, RawRunsKeepEveryValueAndNeverCapAFailure) {
  const json& runs = Entry(0)["runs"];
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_EQ(runs[1]["index"], 1);
  EXPECT_EQ(runs[1]["seeds"]["init"], 1001);
  EXPECT_EQ(runs[1]["status"], "reached");
  EXPECT_DOUBLE_EQ(runs[1]["tta"].get<double>(), 110);
  EXPECT_DOUBLE_EQ(runs[1]["wall_seconds"].get<double>(), 132);
  EXPECT_EQ(runs[1]["threads"], 1);
  EXPECT_TRUE(runs[1]["error"].is_null());
  // The evaluations themselves are in the side file (RunPointsTest), their count here; up to 20 runs the entry's
  // curves hold every run's points for its chart.
  EXPECT_EQ(runs[1]["evaluations"], 22);  // 5..105 every 5 s, then 110
  EXPECT_FALSE(runs[1].contains("points"));
  const json& drawn = Entry(0)["curves"]["drawn"];
  ASSERT_EQ(drawn.size(), 6u);
  ASSERT_EQ(drawn[1]["points"].size(), 22u);
  EXPECT_EQ(drawn[1]["points"][21], json::array({110.0, 0.91}));
  EXPECT_TRUE(Entry(0)["curves"]["band"].is_null());

  EXPECT_EQ(runs[4]["status"], "not_reached");
  EXPECT_TRUE(runs[4]["tta"].is_null());
  EXPECT_DOUBLE_EQ(runs[4]["time_spent"].get<double>(), 150);
  EXPECT_EQ(runs[4]["counted"], true);
  EXPECT_EQ(runs[5]["status"], "incomplete");
  EXPECT_EQ(runs[5]["counted"], false);

  const json& never_runs = Entry(2)["runs"];
  EXPECT_EQ(never_runs[1]["status"], "failed");
  EXPECT_NE(never_runs[1]["error"].get<std::string>().find("SIGABRT"), std::string::npos);
}

TEST_F(ReportModelTest, StatsAtTheTargetHoldEveryStatistic) {
  const json& stats = Entry(0)["stats"];
  EXPECT_DOUBLE_EQ(stats["threshold"].get<double>(), 0.9);
  EXPECT_EQ(stats["runs"], 5);
  ASSERT_EQ(stats["tta"].size(), 5u);
  EXPECT_DOUBLE_EQ(stats["tta"][0].get<double>(), 100);
  EXPECT_TRUE(stats["tta"][4].is_null());
  EXPECT_EQ(stats["tta_summary"]["n"], 4);
  EXPECT_DOUBLE_EQ(stats["tta_summary"]["mean"].get<double>(), 108.75);
  EXPECT_DOUBLE_EQ(stats["tta_summary"]["min"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(stats["tta_summary"]["max"].get<double>(), 120);
  EXPECT_TRUE(stats["cov_interval"].is_object());
  const json& km = stats["kaplan_meier"];
  ASSERT_EQ(km["steps"].size(), 4u);  // events at 100, 105, 110, 120; the failure is censored at 150
  EXPECT_DOUBLE_EQ(km["steps"][0]["time"].get<double>(), 100);
  EXPECT_EQ(km["steps"][0]["at_risk"], 5);
  EXPECT_DOUBLE_EQ(km["steps"][0]["survival"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(km["steps"][3]["survival"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(km["median"].get<double>(), 110);

  // Every statistic of a never-reaching entry is null, not a capped time.
  const json& never = Entry(2)["stats"];
  EXPECT_EQ(never["tta"], json::array({nullptr, nullptr}));
  for (const char* key : {"mean", "median", "stddev", "min", "max"}) {
    EXPECT_TRUE(never["tta_summary"][key].is_null()) << key;
  }
  EXPECT_TRUE(never["ert"].is_null());
  EXPECT_TRUE(never["olympic_mean"].is_null());
  EXPECT_TRUE(never["kaplan_meier"]["median"].is_null());
  EXPECT_TRUE(never["kaplan_meier"]["steps"].empty());
}

TEST_F(ReportModelTest, SensitivityCoversTheDefaultGridAndExtraThresholds) {
  const json& sensitivity = Entry(0)["sensitivity"];
  EXPECT_DOUBLE_EQ(sensitivity["grid"]["step"].get<double>(), 0.0025);
  std::vector<double> thresholds;
  for (const json& row : sensitivity["thresholds"]) thresholds.push_back(row["threshold"].get<double>());
  EXPECT_EQ(thresholds, (std::vector<double>{0.85, 0.89, 0.8925, 0.895, 0.8975, 0.9, 0.9025, 0.905}));
  int targets = 0;
  for (const json& row : sensitivity["thresholds"]) {
    if (row["is_target"] == true) {
      ++targets;
      EXPECT_DOUBLE_EQ(row["threshold"].get<double>(), 0.9);
      EXPECT_EQ(row["reached"], 4);
    }
  }
  EXPECT_EQ(targets, 1);
  // At 0.85 the run that stopped at 0.88 reaches too; at 0.905 the same four runs reach at their 0.91 point.
  EXPECT_EQ(sensitivity["thresholds"][0]["reached"], 5);
  EXPECT_DOUBLE_EQ(sensitivity["thresholds"][0]["hit_rate"].get<double>(), 1.0);
  EXPECT_EQ(sensitivity["thresholds"][7]["reached"], 4);
  EXPECT_LT(sensitivity["thresholds"][0]["tta_summary"]["median"].get<double>(), 107.5);
  // The rows say the Kaplan-Meier median with its interval, not the curve's steps (they grew report.json with every
  // run at every threshold); the entry's own curve at the target keeps its steps.
  const json& row_curve = sensitivity["thresholds"][0]["kaplan_meier"];
  EXPECT_FALSE(row_curve.contains("steps")) << row_curve.dump();
  EXPECT_TRUE(row_curve["median"].is_number());
  EXPECT_TRUE(row_curve.contains("median_lower") && row_curve.contains("median_upper"));
  EXPECT_FALSE(Entry(0)["stats"]["kaplan_meier"]["steps"].empty());
}

TEST_F(ReportModelTest, EpochsToTargetSeparateTheTrainingFromTheMachine) {
  // Three runs reach 0.9 at the same epoch (3) but at different times: TTA varies, epochs to target do not.
  StabilityReportInput input;
  analysis::Entry entry;
  entry.name = "steady";
  entry.threshold = 0.9;
  for (int i = 0; i < 3; ++i) {
    analysis::Run run;
    run.index = i;
    run.status = analysis::RunStatus::kReached;
    const double seconds_per_epoch = 10.0 + 5.0 * i;
    for (int e = 1; e <= 4; ++e) {
      run.points.push_back({seconds_per_epoch * e, e >= 3 ? 0.91 : 0.8});
      run.epochs.push_back(e);
    }
    run.time_spent = seconds_per_epoch * 4;
    entry.runs.push_back(run);
  }
  analysis::Entry without = entry;
  without.name = "no-epochs";
  without.runs[1].epochs.clear();  // one run's log has no epochs: no epoch statistics for the entry
  input.entries = {entry, without};
  const ReportModel model_report = BuildStabilityReport(input);
  const json model = ToJson(model_report);

  const json& row = model["table"][0];
  EXPECT_GT(row["cov"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(row["epochs_cov"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(row["median_epochs"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(model["entries"][0]["runs"][2]["epochs_to_target"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(model["entries"][0]["runs"][2]["tta"].get<double>(), 60.0);
  EXPECT_EQ(model["entries"][0]["epochs_to_target"]["reached"], 3);

  EXPECT_TRUE(model["table"][1]["epochs_cov"].is_null());
  EXPECT_TRUE(model["entries"][1]["epochs_to_target"].is_null());
  EXPECT_TRUE(model["entries"][1]["runs"][1]["epochs_to_target"].is_null());
  EXPECT_DOUBLE_EQ(model["entries"][1]["runs"][0]["epochs_to_target"].get<double>(), 3.0);
}

TEST_F(ReportModelTest, ExtraSectionsAreMergedAtTopLevel) {
  StabilityReportInput input = testing::SyntheticInput();
  AddGeneralizationSection(input, testing::GeneralizationSection(), "test");
  const ReportModel model_report = BuildStabilityReport(input);
  json model = ToJson(model_report);
  ASSERT_TRUE(model["generalization"].is_array());
  EXPECT_EQ(model["generalization"][0]["image_set"], "flickr-holdout");

  input.extra_sections = {{"verdicts", json::array()}};
  try {
    BuildStabilityReport(input);
    FAIL() << "a section replacing the verdicts was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kUsage);
    EXPECT_EQ(error.where(), "extra_sections.verdicts");
  }
}

TEST_F(ReportModelTest, JsonHasNoInfinityOrNaNAndOpensWithTheHeaderThenVerdicts) {
  std::string text = RenderJson(report_);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  json parsed = json::parse(text);
  EXPECT_EQ(parsed, model_);
  std::size_t schema = text.find("\"schema_version\""), plan = text.find("\"plan\""),
              verdicts = text.find("\"verdicts\""), table = text.find("\"table\""), entries = text.find("\"entries\"");
  EXPECT_LT(schema, plan);
  EXPECT_LT(plan, verdicts);
  EXPECT_LT(verdicts, table);
  EXPECT_LT(table, entries);
}

// stats/ throws std::invalid_argument for input it cannot use; a report over user-supplied runs (here a time of
// infinity, as a DAWNBench TSV with "inf" hours gives) is an input error naming the entry, not an internal error.
TEST(ReportModelBoundaryTest, InputStatsCannotUseIsAnInputErrorNamingTheEntry) {
  StabilityReportInput input;
  analysis::Entry entry;
  entry.name = "ImageNet/e";
  entry.source = "dawnbench";
  entry.threshold = 0.93;
  analysis::Run run;
  run.status = analysis::RunStatus::kReached;
  run.points = {{0.5, 0.92}, {std::numeric_limits<double>::infinity(), 0.935}};
  entry.runs = {run};
  input.entries = {entry};
  try {
    BuildStabilityReport(input);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(e.where(), "entry 'ImageNet/e'");
    EXPECT_NE(e.message().find("times must be finite"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace evalsuite::reports
