// The machine's noise told from the training's, on a fixture store: runs whose epochs to target and time per epoch
// are known go through the real SQLite store into the report, and the report's decomposition matches the values
// computed by hand (tests/stats/variation_decomposition_test.cpp has the derivation); a study whose runs recorded a
// busy machine gets the "machine was busy" first line on its verdict card; `[stability] basis = "epochs"` judges
// epochs to target and the report names the basis.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reports/report.h"
#include "store/run_store.h"
#include "study/study_summary.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A run that reaches 0.91 at epoch `epochs` with `per_epoch` seconds of training per epoch.
store::RunRecord ReachingRecord(int index, int epochs, double per_epoch, json contention) {
  store::RunRecord run;
  run.entry = "e";
  run.run_index = index;
  run.threads = 1;
  run.log.status = analysis::EndedAs::kReached;
  for (int e = 1; e <= epochs; ++e) {
    const double t = e * per_epoch;
    run.log.points.push_back({static_cast<double>(e), t, t + 1, e == epochs ? 0.91 : 0.80, std::nullopt});
  }
  run.log.train_seconds = epochs * per_epoch;
  run.log.wall_seconds = run.log.train_seconds + 1;
  run.log.header = {
      {"precision", "fp32"},
      {"precision_choice", {{"precision", "fp32"}, {"reason", "fp32 instead of the recipe's bf16: measured"}}}};
  run.execution = {{"executor", "local"}, {"contention", std::move(contention)}};
  return run;
}

json Contention(double other, double steal, double load) {
  return {{"other_busy_cores", other},
          {"steal_fraction", steal},
          {"load_average_1m", {{"mean", load}, {"max", load}}},
          {"cpu_pressure_some", nullptr},
          {"cores", 2}};
}

reports::ReportModel Report(const std::vector<store::RunRecord>& runs, const std::string& basis = "time") {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const json plan = {
      {"stability", {{"max_cov_upper", 0.10}, {"min_hit_rate", 0.9}, {"min_reached", 3}, {"basis", basis}}}};
  const int64_t id = store->CreateStudy("s", "study", plan, {});
  store::EntryRecord entry;
  entry.name = "e";
  entry.threshold = 0.9;
  store->UpsertEntry(id, entry);
  for (const store::RunRecord& run : runs) store->InsertRun(id, run);
  return reports::BuildStabilityReport(BuildReportInput(*store, {*store->FindStudy("s")}));
}

TEST(MachineNoiseReportTest, DecompositionMatchesHandComputedValuesAndABusyMachineIsSaidFirst) {
  // Epochs to target 2, 2, 4 and time per epoch 10, 20, 10 s: TTA 20, 40, 40 s. Runs 0 and 1 ran on a busy machine.
  const reports::ReportModel report = Report({ReachingRecord(0, 2, 10, Contention(0.8, 0.12, 3.4)),
                                              ReachingRecord(1, 2, 20, Contention(0.6, 0.10, 3.4)),
                                              ReachingRecord(2, 4, 10, Contention(0.1, 0.0, 2.0))});
  const json model = reports::ToJson(report);
  const json& v = model["entries"][0]["variation"];
  const double l2 = std::log(2.0);
  EXPECT_NEAR(v["cov_tta"].get<double>(), 0.3464102, 1e-7);
  EXPECT_NEAR(v["cov_epochs"].get<double>(), 0.4330127, 1e-7);
  EXPECT_NEAR(v["cov_time_per_epoch"].get<double>(), 0.4330127, 1e-7);
  EXPECT_NEAR(v["var_log_tta"].get<double>(), l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(v["covariance_term"].get<double>(), -l2 * l2 / 3, 1e-12);
  EXPECT_NEAR(model["table"][0]["time_per_epoch_cov"].get<double>(), 0.4330127, 1e-7);

  const json& c = model["entries"][0]["contention"];
  EXPECT_EQ(c["runs_measured"], 3);
  EXPECT_EQ(c["busy_runs"], 2);
  EXPECT_NEAR(c["other_busy_cores"]["mean"].get<double>(), 0.5, 1e-12);

  const json& verdict = model["verdicts"][0];
  const std::string first = verdict["first_line"].get<std::string>();
  EXPECT_THAT(first, StartsWith("the machine was busy during 2 of 3 runs (steal 7.3%, load 2.9 on 2 cores"));
  EXPECT_THAT(first, HasSubstr("time per epoch varied 43.3%"));
  EXPECT_THAT(first, HasSubstr("judged on epochs to target the entry is "));
  EXPECT_EQ(verdict["basis"], "time");
  // The card shows it before anything else, in both renderings.
  const std::string md = reports::RenderMarkdown(report);
  const std::size_t card = md.find("**e** — Result:");
  ASSERT_NE(card, std::string::npos);
  EXPECT_EQ(md.find("- **the machine was busy during 2 of 3 runs", card), md.find("\n- ", card) + 1) << md;
  EXPECT_THAT(reports::RenderHtml(report), HasSubstr("<p class=\"machine-note\"><strong>the machine was busy"));
  // The precision each run trained in, with its reason, is on the card too.
  bool precision_line = false;
  for (const json& reason : verdict["reasons"])
    precision_line |= reason.get<std::string>().rfind("precision: fp32 (3 runs)", 0) == 0;
  EXPECT_TRUE(precision_line) << verdict.dump(2);
}

// The precision record is decoded once at the store's edge (analysis/run_precision.h): one whose fields have other
// types (a hand-edited or foreign log) reads as "?" with no reason, and report.json still shows it as kept. The
// report read it with json::value before, which threw a type_error out of `evalsuite report`.
TEST(MachineNoiseReportTest, APrecisionRecordOfOtherTypesReadsAsUnknownAndIsShownAsKept) {
  std::vector<store::RunRecord> runs;
  for (int i = 0; i < 3; ++i) {
    runs.push_back(ReachingRecord(i, 3, 10, Contention(0.0, 0, 1.0)));
    runs.back().log.header["precision_choice"] = {{"precision", 16}, {"reason", {"not", "text"}}};
  }
  const reports::ReportModel report = Report(runs);
  const json model = reports::ToJson(report);
  bool precision_line = false;
  for (const json& reason : model["verdicts"][0]["reasons"])
    precision_line |= reason.get<std::string>() == "precision: ? (3 runs)";
  EXPECT_TRUE(precision_line) << model["verdicts"][0].dump(2);
  EXPECT_EQ(model["entries"][0]["runs"][0]["precision"]["precision"], 16);
}

TEST(MachineNoiseReportTest, AQuietMachineWithSteadyEpochsGetsNoMachineLine) {
  const json model = reports::ToJson(
      Report({ReachingRecord(0, 3, 10, Contention(0.05, 0, 1.0)), ReachingRecord(1, 3, 10.2, Contention(0.0, 0, 1.0)),
              ReachingRecord(2, 3, 10.1, Contention(0.1, 0, 1.1))}));
  EXPECT_TRUE(model["verdicts"][0]["first_line"].is_null()) << model["verdicts"][0].dump(2);
  EXPECT_EQ(model["entries"][0]["contention"]["busy_runs"], 0);
}

TEST(MachineNoiseReportTest, BasisEpochsJudgesEpochsToTargetAndSaysSo) {
  // Identical epochs to target, time per epoch all over the place: on time NOT STABLE-ish, on epochs a 0% CoV.
  std::vector<store::RunRecord> runs;
  const double per_epoch[] = {10, 16, 22, 12, 19};
  for (int i = 0; i < 5; ++i) runs.push_back(ReachingRecord(i, 3, per_epoch[i], Contention(0.9, 0, 3.0)));
  const json on_time = reports::ToJson(Report(runs));
  const reports::ReportModel on_epochs_report = Report(runs, "epochs");
  const json on_epochs = reports::ToJson(on_epochs_report);
  EXPECT_EQ(on_time["verdicts"][0]["basis"], "time");
  EXPECT_EQ(on_epochs["verdicts"][0]["basis"], "epochs");
  EXPECT_NEAR(on_epochs["verdicts"][0]["cov"].get<double>(), 0.0, 1e-12);
  EXPECT_GT(on_time["verdicts"][0]["cov"].get<double>(), 0.2);
  EXPECT_EQ(on_epochs["rule"]["basis"], "epochs");
  EXPECT_THAT(on_epochs["rule"]["statement"].get<std::string>(), StartsWith("Basis: epochs to target"));
  EXPECT_THAT(on_time["rule"]["statement"].get<std::string>(), StartsWith("Basis: time (TTA"));
  EXPECT_THAT(on_epochs["verdicts"][0]["first_line"].get<std::string>(),
              HasSubstr("the verdict is judged on epochs to target ([stability] basis = \"epochs\")"));
  EXPECT_THAT(reports::RenderMarkdown(on_epochs_report), HasSubstr("CoV of epochs to target (the rule's basis)"));
}

}  // namespace
}  // namespace evalsuite::study
