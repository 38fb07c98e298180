// The [variance] design as a plan (issue 55): every refusal names the file, the line and the key with its reason; the
// schedule holds every cell x repeat once, the sources not varied constant, repeats with identical seeds, level seeds
// shared by the study's entries; the design survives the plan's JSON round trip, and a plan without one is stored
// as before; the runs get the seeds (built-in flags, external placeholders) and record them.
#include "study/plans/variance_design.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "common/error.h"
#include "study/execution/run_execution.h"
#include "study/execution/slurm_task.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

constexpr int kVarianceTestCores = 2;

StudyPlan ParseVariancePlan(const std::string& text, const PlanOverrides& overrides = {}) {
  return ParseStudyPlan(text, "/studies/v.toml", overrides, kVarianceTestCores);
}

std::string VariancePlanError(const std::string& text, const PlanOverrides& overrides = {}) {
  try {
    ParseVariancePlan(text, overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kVarianceExternalEntry =
    "{ name = \"ext\", command = \"sh run.sh {seed} {init_seed} {data_seed} {log}\", threshold = 0.8 }";

TEST(VarianceDesignTest, RefusesBadDesignsAtTheKeyWithTheReason) {
  struct Case {
    std::string body;
    std::string where;  // "v.toml:LINE: key 'KEY'"
    std::string why;
  };
  const std::string head = "entries = [\"baseline\"]\n";
  const std::vector<Case> cases = {
      {head + "[variance]\nvary = [\"init\", \"weights\"]\n", "v.toml:3: key 'variance.vary[1]'",
       "unknown source 'weights'"},
      {head + "[variance]\nvary = [\"init\", \"init\"]\n", "v.toml:3: key 'variance.vary[1]'", "named twice"},
      {head + "[variance]\nvary = []\n", "v.toml:3: key 'variance.vary'", "non-empty"},
      {head + "[variance]\nlevels = 3\n", "v.toml:2: key 'variance.vary'", "is required"},
      {head + "[variance]\nvary = [\"init\"]\nlevels = 1\n", "v.toml:4: key 'variance.levels'", "between 2 and 100"},
      {head + "[variance]\nvary = [\"init\"]\nrepeats = 0\n", "v.toml:4: key 'variance.repeats'", "between 1 and 100"},
      {head + "[variance]\nvary = [\"init\"]\nseeds = 3\n", "v.toml:4: key 'variance.seeds'", "unknown key"},
      {"runs = 5\n" + head + "[variance]\nvary = [\"init\"]\nlevels = 3\nrepeats = 2\n", "v.toml:1: key 'runs'",
       "set it to 6"},
      {"entries = [\"baseline\", " + std::string(kVarianceExternalEntry) +
           "]\n[variance]\nvary = [\"init\", \"augmentation\"]\n",
       "v.toml:3: key 'variance.vary'", "entries[1] 'ext' has no {aug_seed}"},
      {head + "[sequential]\nmin_runs = 2\nmax_runs = 4\nquestion = \"stability\"\n[variance]\nvary = [\"init\"]\n",
       "v.toml:6: key 'variance'", "[sequential]"},
      {head + "[variance]\nvary = [\"init\", \"data_order\", \"augmentation\"]\nlevels = 30\nrepeats = 2\n",
       "v.toml:2: key 'variance'", "more than 10000 runs"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    const std::string error = VariancePlanError(c.body);
    EXPECT_NE(error.find(c.where), std::string::npos) << error;
    EXPECT_NE(error.find(c.why), std::string::npos) << error;
  }
  PlanOverrides runs_flag;
  runs_flag.runs = 4;
  const std::string flag_error = VariancePlanError(head + "[variance]\nvary = [\"init\"]\n", runs_flag);
  EXPECT_NE(flag_error.find("--runs"), std::string::npos) << flag_error;
  // runs equal to the design's is accepted: it says the same thing.
  EXPECT_EQ(VariancePlanError("runs = 6\n" + head + "[variance]\nvary = [\"init\"]\nrepeats = 2\n"), "");
}

TEST(VarianceDesignTest, EveryCellRunsRepeatsTimesWithIdenticalSeedsAndHeldSourcesConstant) {
  const StudyPlan plan = ParseVariancePlan(
      "seed = 7\nentries = [\"baseline\", \"fast\"]\n"
      "[variance]\nvary = [\"data_order\", \"init\"]\nlevels = 3\nrepeats = 2\n");
  ASSERT_TRUE(plan.analysis.variance);
  EXPECT_EQ(plan.analysis.variance->vary, (std::vector<std::string>{"init", "data_order"}));  // canonical order
  EXPECT_EQ(plan.runs, 18);
  ASSERT_EQ(plan.schedule.size(), 36u);
  std::map<std::string, std::map<std::tuple<uint64_t, uint64_t, uint64_t>, int>> cells;
  std::map<std::string, std::set<uint64_t>> run_seeds, augmentation, init_levels, data_levels;
  for (const PlannedRun& r : plan.schedule) {
    ASSERT_TRUE(r.sources);
    ++cells[r.entry][{r.sources->init, r.sources->data_order, r.sources->augmentation}];
    run_seeds[r.entry].insert(r.seed);
    augmentation[r.entry].insert(r.sources->augmentation);
    init_levels[r.entry].insert(r.sources->init);
    data_levels[r.entry].insert(r.sources->data_order);
  }
  for (const std::string entry : {"baseline", "fast"}) {
    SCOPED_TRACE(entry);
    EXPECT_EQ(cells[entry].size(), 9u);  // every combination of 3 init levels and 3 data-order levels
    for (const auto& [seeds, count] : cells[entry]) EXPECT_EQ(count, 2);  // each run twice with identical seeds
    EXPECT_EQ(init_levels[entry].size(), 3u);
    EXPECT_EQ(data_levels[entry].size(), 3u);
    EXPECT_EQ(augmentation[entry], std::set<uint64_t>{VarianceLevelSeed(7, "augmentation", 0)});  // held
    EXPECT_EQ(run_seeds[entry].size(), 18u);  // the run seed stays each run's own
  }
  // The level seeds are the study's, the source's and the level's alone: both entries run the same ones.
  EXPECT_EQ(init_levels["baseline"], init_levels["fast"]);
  EXPECT_EQ(init_levels["baseline"],
            (std::set<uint64_t>{VarianceLevelSeed(7, "init", 0), VarianceLevelSeed(7, "init", 1),
                                VarianceLevelSeed(7, "init", 2)}));
  EXPECT_NE(VarianceLevelSeed(7, "init", 0), VarianceLevelSeed(8, "init", 0));
  EXPECT_NE(VarianceLevelSeed(7, "init", 0), VarianceLevelSeed(7, "data_order", 0));
  // Each block of 9 indices is one whole replicate.
  std::set<std::pair<uint64_t, uint64_t>> first_block;
  for (int i = 0; i < 9; ++i) {
    const PlannedRun* r = plan.FindRun("baseline", i);
    first_block.insert({r->sources->init, r->sources->data_order});
  }
  EXPECT_EQ(first_block.size(), 9u);
}

TEST(VarianceDesignTest, WarnsWhenRepeatsCannotSeparateNondeterminism) {
  VarianceDesign design;
  design.vary = {"init"};
  design.repeats = 1;
  ASSERT_EQ(VarianceDesignWarnings(design).size(), 1u);
  EXPECT_NE(VarianceDesignWarnings(design)[0].find("nondeterminism"), std::string::npos);
  design.repeats = 2;
  EXPECT_TRUE(VarianceDesignWarnings(design).empty());
  design.levels = 3;
  EXPECT_EQ(DescribeVarianceDesign(design),
            "init x 3 levels = 3 cells, 2 repeats: 6 runs per entry (data_order, augmentation held)");
}

TEST(VarianceDesignTest, DesignSurvivesTheStoredPlanAndPlainPlansKeepTheirForm) {
  const StudyPlan plan =
      ParseVariancePlan("entries = [\"baseline\"]\n[variance]\nvary = [\"augmentation\"]\nlevels = 2\nrepeats = 3\n");
  const StudyPlan back = PlanFromJson(PlanToJson(plan));
  ASSERT_TRUE(back.analysis.variance);
  EXPECT_EQ(back.analysis.variance->vary, plan.analysis.variance->vary);
  EXPECT_EQ(back.analysis.variance->levels, 2);
  EXPECT_EQ(back.analysis.variance->repeats, 3);
  ASSERT_EQ(back.schedule.size(), plan.schedule.size());
  for (std::size_t i = 0; i < plan.schedule.size(); ++i) {
    ASSERT_TRUE(back.schedule[i].sources);
    EXPECT_EQ(back.schedule[i].sources->augmentation, plan.schedule[i].sources->augmentation);
    EXPECT_EQ(back.schedule[i].sources->init, plan.schedule[i].sources->init);
  }
  EXPECT_EQ(PlanToJson(back), PlanToJson(plan));

  // Without [variance]: no new key anywhere in the stored plan, so stores made before keep their plans' form.
  const StudyPlan plain = ParseVariancePlan("runs = 2\nentries = [\"baseline\"]\n");
  const std::string stored = PlanToJson(plain).dump();
  EXPECT_EQ(stored.find("\"variance\""), std::string::npos) << stored;
  EXPECT_EQ(stored.find("init_seed"), std::string::npos) << stored;
  EXPECT_FALSE(PlanFromJson(PlanToJson(plain)).schedule[0].sources);
}

TEST(VarianceDesignTest, RunsGetTheDesignSeedsAsFlagsAndPlaceholders) {
  const StudyPlan plan = ParseVariancePlan("entries = [\"baseline\", " + std::string(kVarianceExternalEntry) +
                                           "]\n[variance]\nvary = [\"init\", \"data_order\"]\n");
  const PlannedRun& builtin = *plan.FindRun("baseline", 0);
  const ChildSpec spec = BuildChildSpec(plan, *plan.FindEntry("baseline"), builtin, "/tmp/run", "/bin/evalsuite");
  auto flag = [&](const std::string& name) {
    for (std::size_t i = 0; i + 1 < spec.argv.size(); ++i) {
      if (spec.argv[i] == name) return spec.argv[i + 1];
    }
    return std::string();
  };
  EXPECT_EQ(flag("--init-seed"), std::to_string(builtin.sources->init));
  EXPECT_EQ(flag("--data-seed"), std::to_string(builtin.sources->data_order));
  EXPECT_EQ(flag("--aug-seed"), std::to_string(builtin.sources->augmentation));
  EXPECT_EQ(flag("--seed"), std::to_string(builtin.seed));

  const PlannedRun& external = *plan.FindRun("ext", 3);
  const ChildSpec ext = BuildChildSpec(plan, *plan.FindEntry("ext"), external, "/tmp/run", "/bin/evalsuite");
  ASSERT_EQ(ext.argv.size(), 3u);
  EXPECT_NE(ext.argv[2].find("run.sh " + std::to_string(external.seed) + " " + std::to_string(external.sources->init) +
                             " " + std::to_string(external.sources->data_order) + " "),
            std::string::npos)
      << ext.argv[2];

  // Outside a design a built-in run gets no stream flags (its seeds derive from --seed as before), and an external
  // command's {init_seed} is the stream the trainer would derive.
  const StudyPlan plain =
      ParseVariancePlan("runs = 1\nentries = [\"baseline\", " + std::string(kVarianceExternalEntry) + "]\n");
  const ChildSpec plain_spec =
      BuildChildSpec(plain, *plain.FindEntry("baseline"), *plain.FindRun("baseline", 0), "/tmp/r", "/bin/evalsuite");
  for (const std::string& arg : plain_spec.argv) EXPECT_EQ(arg.find("-seed", 2), std::string::npos) << arg;
  const PlannedRun& plain_ext = *plain.FindRun("ext", 0);
  const ChildSpec plain_ext_spec =
      BuildChildSpec(plain, *plain.FindEntry("ext"), plain_ext, "/tmp/r", "/bin/evalsuite");
  EXPECT_NE(plain_ext_spec.argv[2].find(" " + std::to_string(DerivedSourceSeeds(plain_ext.seed).init) + " "),
            std::string::npos)
      << plain_ext_spec.argv[2];
}

// Slurm runs a design as any study: each array task carries its run's source seeds, so the task trains with them.
TEST(VarianceDesignTest, SlurmArrayTasksCarryTheDesignSeeds) {
  evalsuite::testing::TempDir dir;
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  const StudyPlan plan = ParseVariancePlan(
      "executor = \"slurm\"\nentries = [\"baseline\"]\n[variance]\nvary = [\"init\"]\nlevels = 2\n", overrides);
  ArrayManifest manifest;
  manifest.sequence = 1;
  manifest.job_id = "7";
  manifest.plan = PlanToJson(plan);
  for (const PlannedRun& run : plan.schedule) manifest.tasks.push_back({run, dir / "runs" / "x"});
  std::filesystem::create_directories(SlurmDir(plan));
  WriteManifest(ManifestPath(plan, 1), manifest);
  const ArrayManifest back = ReadManifest(ManifestPath(plan, 1));
  ASSERT_EQ(back.tasks.size(), plan.schedule.size());
  for (std::size_t i = 0; i < back.tasks.size(); ++i) {
    ASSERT_TRUE(back.tasks[i].run.sources);
    EXPECT_EQ(back.tasks[i].run.sources->init, plan.schedule[i].sources->init);
    EXPECT_EQ(back.tasks[i].run.sources->augmentation, plan.schedule[i].sources->augmentation);
  }
}

}  // namespace
}  // namespace evalsuite::study
