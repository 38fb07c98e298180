// `study plan --pilot` judges the pilot's stability on the basis the report judges the study on
// (stats/entry_verdict.h): under `[stability] basis = "epochs"` the pilot's verdict and the runs it asks for come
// from epochs to target, and the pilot's verdict is the report's.
#include <gtest/gtest.h>

#include <string>

#include "reports/report.h"
#include "stats/stability.h"
#include "study/plans/run_planning.h"
#include "tests/support/epoch_run_fixtures.h"

namespace evalsuite::study {
namespace {

using nlohmann::json;

// Epochs to target 19..21 (CoV 4.1%), time per epoch 10..22 s (CoV of TTA ~28%): STABLE on epochs, NOT STABLE on
// time.
reports::StabilityReportInput Pilot(const std::string& basis) {
  reports::StabilityReportInput pilot;
  pilot.settings.rule.basis = basis;
  analysis::Entry entry;
  entry.name = "e";
  entry.threshold = 0.9;
  const int epochs[] = {19, 20, 21, 20, 19, 21, 20, 20, 19, 21};
  const double per_epoch[] = {10, 16, 22, 12, 19, 14, 21, 11, 17, 20};
  for (int i = 0; i < 10; ++i) entry.runs.push_back(evalsuite::testing::EpochRunInput(i, epochs[i], per_epoch[i]));
  pilot.entries.push_back(entry);
  return pilot;
}

RunPlanning Planned(const std::string& basis) {
  StudyPlan plan;
  plan.entries.push_back(PlannedEntry{});
  plan.entries.back().name = "e";
  plan.analysis.rule.basis = basis;
  RunPlanningOptions options;
  options.simulations = 50;
  options.max_runs = 12;
  return PlanRunsFromPilot(plan, Pilot(basis), options);
}

std::string ReportVerdict(const std::string& basis) {
  return reports::ToJson(reports::BuildStabilityReport(Pilot(basis)))["verdicts"][0]["result"].get<std::string>();
}

TEST(RunPlanningBasisTest, ThePilotIsJudgedOnTheRulesBasisAsTheReportJudgesIt) {
  const json on_time = RunPlanningToJson(Planned(stats::kBasisTime))["entries"][0];
  const json on_epochs = RunPlanningToJson(Planned(stats::kBasisEpochs))["entries"][0];
  EXPECT_EQ(on_time["basis"], "time");
  EXPECT_EQ(on_time["pilot_verdict"], "NOT STABLE");
  EXPECT_EQ(on_time["pilot_verdict"], ReportVerdict(stats::kBasisTime));
  EXPECT_EQ(on_epochs["basis"], "epochs");
  EXPECT_EQ(on_epochs["pilot_verdict"], "STABLE") << on_epochs.dump(2);
  EXPECT_EQ(on_epochs["pilot_verdict"], ReportVerdict(stats::kBasisEpochs));
  EXPECT_NE(FormatRunPlanning(Planned(stats::kBasisEpochs)).find("STABLE on epochs to target"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::study
