// The one decode of a stored plan (stored_plan.h): the store hands back the plan it was given, typed; plans older
// versions wrote read with today's defaults; an import's record and a plan this evalsuite cannot read strictly still
// give what `study list` and `study show` print, and only the strict plan throws.
#include "study/plans/stored_plan.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "store/run_store.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_summary.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

StudyPlan StoredPlanFixture() {
  return ParseStudyPlan(R"(
name = "typed"
runs = 3
seed = 7
jobs = 2
threads = 1
entries = ["baseline", "fast"]
compare = [["fast", "baseline"]]
[stability]
consecutive_evaluations = 2
[sequential]
question = ["fast", "baseline"]
min_runs = 2
max_runs = 3
)",
                        "/studies/typed.toml", {}, 4);
}

TEST(StoredPlanTest, TheStoreHandsBackTheTypedPlanItWasGiven) {
  evalsuite::testing::TempDir dir;
  const StudyPlan plan = StoredPlanFixture();
  auto store = store::RunStore::Open(dir.path() / "store.db");
  store->CreateStudy(plan.name, "study", PlanToJson(plan), {{"host", "fixture"}});
  const StoredPlan stored = DecodeStoredPlan(store->FindStudy("typed")->plan);
  EXPECT_EQ(PlanToJson(stored.Plan()), PlanToJson(plan));
  EXPECT_EQ(stored.Plan().schedule.size(), 6u);
  EXPECT_EQ(stored.Settings().rule.consecutive_evaluations, 2u);
  ASSERT_TRUE(stored.Settings().sequential.has_value());
  EXPECT_EQ(stored.Settings().compare.size(), 1u);
  EXPECT_TRUE(stored.Schedule().listed);
  EXPECT_EQ(stored.Schedule().planned_runs, 6);
  EXPECT_TRUE(stored.Schedule().sequential);
  EXPECT_EQ(stored.Figures().entries, 2u);
  EXPECT_EQ(stored.Figures().runs, 3);
  EXPECT_EQ(stored.Figures().seed, 7u);
  EXPECT_EQ(stored.Figures().jobs, 2);
  EXPECT_EQ(stored.PlannedRunsOf("fast"), 3);
  EXPECT_EQ(stored.PlannedRunsOf("other"), 0);
  EXPECT_EQ(stored.AsRecorded(), PlanToJson(plan));
}

TEST(StoredPlanTest, APlanAnOlderVersionWroteReadsWithTodaysDefaults) {
  nlohmann::json older = PlanToJson(StoredPlanFixture());
  for (const char* key : {"evals_per_epoch", "onednn_isa_cap", "precision", "executor", "slurm", "devices",
                          "devices_per_run", "cpus_per_run", "machine_ceilings", "gpu_sample_seconds"}) {
    older.erase(key);
  }
  older["stability"].erase("consecutive_evaluations");
  older["stability"].erase("basis");
  const StoredPlan stored = DecodeStoredPlan(older);
  EXPECT_EQ(stored.Plan().evals_per_epoch, 1);
  EXPECT_EQ(stored.Plan().precision, "auto");
  EXPECT_EQ(stored.Plan().machine_ceilings, "measure");
  EXPECT_EQ(stored.Settings().rule.consecutive_evaluations, 1u);
  EXPECT_EQ(stored.Settings().rule.basis, "time");
  EXPECT_EQ(stored.AsRecorded(), older);
}

TEST(StoredPlanTest, AnImportsRecordGivesTheDefaultsAndNoPlan) {
  const StoredPlan stored = DecodeStoredPlan({{"canonical_paths", {"/logs/a"}}, {"format", "mlperf"}});
  EXPECT_THROW((void)stored.Plan(), Error);
  EXPECT_EQ(stored.Settings().rule.consecutive_evaluations, 1u);
  EXPECT_FALSE(stored.Settings().sequential.has_value());
  EXPECT_FALSE(stored.Schedule().listed);
  EXPECT_EQ(stored.Schedule().planned_runs, 0);
  EXPECT_FALSE(stored.Schedule().sequential);
  EXPECT_EQ(stored.PlannedRunsOf("a"), std::nullopt);
}

// `study list` and `study show` printed such a plan before the decode was typed; only resume refused it.
TEST(StoredPlanTest, APlanThatDoesNotDecodeStrictlyStillListsAndShows) {
  nlohmann::json broken = PlanToJson(StoredPlanFixture());
  broken.erase("stop_at_target");
  const StoredPlan stored = DecodeStoredPlan(broken);
  try {
    (void)stored.Plan();
    ADD_FAILURE() << "a plan without stop_at_target decoded strictly";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plan.stop_at_target"), std::string::npos) << e.what();
  }
  EXPECT_EQ(stored.Settings().rule.consecutive_evaluations, 2u);
  EXPECT_EQ(stored.Schedule().planned_runs, 6);
  EXPECT_EQ(stored.Figures().runs, 3);
  EXPECT_EQ(stored.PlannedRunsOf("baseline"), 3);
  // A malformed part throws when asked for, not before: the rest still reads.
  broken["stability"] = "not a table";
  broken["runs"] = "three";
  const StoredPlan malformed = DecodeStoredPlan(broken);
  EXPECT_THROW((void)malformed.Settings(), Error);
  EXPECT_ANY_THROW((void)malformed.Figures());
  EXPECT_EQ(malformed.Schedule().planned_runs, 6);
}

// The cost section's price comes from the decoded plan (the report read it from the shown JSON before): a plan's
// number, none from an import's record, a plan without the key, or one whose value is not a number.
TEST(StoredPlanTest, ThePricePerHourIsDecodedWithThePlan) {
  StudyPlan priced = StoredPlanFixture();
  priced.cost_per_hour = 3.06;
  EXPECT_EQ(DecodeStoredPlan(PlanToJson(priced)).CostPerHour(), 3.06);
  EXPECT_EQ(DecodeStoredPlan(PlanToJson(StoredPlanFixture())).CostPerHour(), std::nullopt);
  EXPECT_EQ(DecodeStoredPlan({{"format", "mlperf"}}).CostPerHour(), std::nullopt);
  nlohmann::json broken = PlanToJson(priced);
  broken.erase("stop_at_target");  // not strictly a plan: the price still reads, as the report always read it
  EXPECT_EQ(DecodeStoredPlan(broken).CostPerHour(), 3.06);
  broken["cost_per_hour"] = "3.06";
  EXPECT_EQ(DecodeStoredPlan(broken).CostPerHour(), std::nullopt);
}

TEST(StoredPlanTest, TheReportIsGivenThePriceOfTheStoredStudy) {
  evalsuite::testing::TempDir dir;
  StudyPlan priced = StoredPlanFixture();
  priced.cost_per_hour = 3.06;
  auto store = store::RunStore::Open(dir.path() / "store.db");
  store->CreateStudy(priced.name, "study", PlanToJson(priced), {{"host", "fixture"}});
  store->CreateStudy("other", "study", PlanToJson(StoredPlanFixture()), {{"host", "fixture"}});
  EXPECT_EQ(BuildReportInput(*store, {*store->FindStudy("typed")}).cost_per_hour, 3.06);
  // A report of several studies prices none of them (each has its own plan), as before.
  EXPECT_EQ(BuildReportInput(*store, {*store->FindStudy("typed"), *store->FindStudy("other")}).cost_per_hour,
            std::nullopt);
}

}  // namespace
}  // namespace evalsuite::study
