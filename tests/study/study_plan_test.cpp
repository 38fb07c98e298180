// Study plans: defaults resolved from the catalog and the file, flags win, and every error names the line
// and the key (typos included). The plan survives its JSON round trip (the store keeps it; resume reads it).
#include "study/plans/study_plan.h"

#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "study/plans/command_template.h"
#include "study/plans/study_plan_loader.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

constexpr int kCores = 4;

StudyPlan Parse(const std::string& text, const PlanOverrides& overrides = {}) {
  return ParseStudyPlan(text, "/studies/s.toml", overrides, kCores);
}

// The error's text for a file that must not pass, "" when it passed.
std::string ErrorOf(const std::string& text, const PlanOverrides& overrides = {}) {
  try {
    Parse(text, overrides);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(StudyPlanTest, ResolvesBuiltinAndExternalEntries) {
  StudyPlan plan = Parse(R"(
name = "demo"
runs = 3
seed = 42
jobs = 2
train_subset = 5000
entries = ["baseline", { name = "ext", command = "sh run.sh {seed} {log}", threshold = 0.8, epochs = 4 }]
[stability]
min_reached = 2
)");
  EXPECT_EQ(plan.name, "demo");
  EXPECT_EQ(plan.threads, 2);  // cores / jobs
  ASSERT_EQ(plan.entries.size(), 2u);
  const PlannedEntry& baseline = plan.entries[0];
  EXPECT_TRUE(baseline.builtin);
  EXPECT_DOUBLE_EQ(baseline.threshold, 0.91);  // the catalog's default
  EXPECT_GT(baseline.epochs, 0);
  EXPECT_FALSE(baseline.description.empty());
  EXPECT_EQ(baseline.train_subset, 5000);
  const PlannedEntry& ext = plan.entries[1];
  EXPECT_FALSE(ext.builtin);
  EXPECT_DOUBLE_EQ(ext.threshold, 0.8);
  EXPECT_EQ(ext.epochs, 4);
  EXPECT_EQ(ext.log_format, "jsonl");
  EXPECT_EQ(plan.analysis.rule.min_reached, 2u);
  EXPECT_EQ(plan.schedule.size(), 6u);
  EXPECT_EQ(plan.study_dir, "/studies");
}

TEST(StudyPlanTest, ArrayOfTablesFormWorksAndNameDefaultsToTheFileStem) {
  StudyPlan plan = Parse(R"(
[[entries]]
name = "baseline"
threshold = 0.9
epochs = 2
[[entries]]
name = "fast"
)");
  EXPECT_EQ(plan.name, "s");
  EXPECT_DOUBLE_EQ(plan.entries[0].threshold, 0.9);
  EXPECT_EQ(plan.entries[0].epochs, 2);
  EXPECT_EQ(plan.runs, 5);
}

TEST(StudyPlanTest, FlagsOverrideTheFile) {
  PlanOverrides overrides;
  overrides.runs = 7;
  overrides.jobs = 4;
  overrides.seed = 9;
  overrides.epochs = 3;
  overrides.train_subset = 100;
  overrides.name = "other";
  StudyPlan plan = Parse("runs = 2\njobs = 1\nepochs = 8\nentries = [\"baseline\"]\n", overrides);
  EXPECT_EQ(plan.runs, 7);
  EXPECT_EQ(plan.jobs, 4);
  EXPECT_EQ(plan.threads, 1);
  EXPECT_EQ(plan.seed, 9u);
  EXPECT_EQ(plan.entries[0].epochs, 3);
  EXPECT_EQ(plan.entries[0].train_subset, 100);
  EXPECT_EQ(plan.name, "other");
  EXPECT_EQ(plan.schedule.size(), 7u);
}

TEST(StudyPlanTest, ErrorsNameTheLineAndTheKey) {
  // A typo is an error, not a silent default.
  std::string e = ErrorOf("entries = [\"baseline\"]\n\nrnus = 5\n");
  EXPECT_NE(e.find("s.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'rnus'"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\"]\nruns = \"five\"\n");
  EXPECT_NE(e.find("s.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'runs'"), std::string::npos) << e;
  EXPECT_NE(e.find("integer"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\"]\nruns = 0\n");
  EXPECT_NE(e.find("key 'runs'"), std::string::npos) << e;

  e = ErrorOf("runs = 3\n[[entries]]\nname = \"baseline\"\n\nthreshhold = 0.9\n");
  EXPECT_NE(e.find("s.toml:5"), std::string::npos) << e;
  EXPECT_NE(e.find("entries[0].threshhold"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\", \"nosuch\"]\n");
  EXPECT_NE(e.find("s.toml:1"), std::string::npos) << e;
  EXPECT_NE(e.find("entries[1]"), std::string::npos) << e;
  EXPECT_NE(e.find("nosuch"), std::string::npos) << e;
  EXPECT_NE(e.find("fast"), std::string::npos) << e;  // lists the valid names

  e = ErrorOf("threshold = 91\nentries = [\"baseline\"]\n");
  EXPECT_NE(e.find("s.toml:1"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'threshold'"), std::string::npos) << e;
  EXPECT_NE(e.find("fractions"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\"]\n[stability]\nmax_cov = 0.1\n");
  EXPECT_NE(e.find("s.toml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("stability.max_cov"), std::string::npos) << e;

  e = ErrorOf("runs = 3\n");
  EXPECT_NE(e.find("key 'entries'"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\"]\nevals_per_epoch = 0\n");
  EXPECT_NE(e.find("s.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'evals_per_epoch'"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\", \"baseline\"]\n");
  EXPECT_NE(e.find("twice"), std::string::npos) << e;

  e = ErrorOf("entries = [\"baseline\"]\nruns = [1\n");  // not TOML at all
  EXPECT_NE(e.find("s.toml:2"), std::string::npos) << e;

  // A top-level key appended below the last [[entries]] lands in that entry (TOML): the error says where it goes.
  e = ErrorOf(
      "runs = 3\n[[entries]]\nname = \"baseline\"\n[[entries]]\nname = \"fast\"\ncompare = [\"fast\", "
      "\"baseline\"]\n");
  EXPECT_NE(e.find("s.toml:6: key 'entries[1].compare': unknown key in an entry"), std::string::npos) << e;
  EXPECT_NE(e.find("'compare' is a top-level key: write it above the first [[entries]]"), std::string::npos) << e;
}

TEST(StudyPlanTest, ExternalEntriesAreCheckedWhenPlanned) {
  std::string e = ErrorOf("entries = [\"baseline\"]\n[[entries]]\n");
  EXPECT_FALSE(e.empty());  // entries defined twice: TOML itself refuses

  e = ErrorOf("[[entries]]\nname = \"x\"\ncommand = \"run {seed} {log}\"\n");
  EXPECT_NE(e.find("entries[0].threshold"), std::string::npos) << e;

  e = ErrorOf("threshold = 0.8\n[[entries]]\nname = \"x\"\ncommand = \"run {sede} {log}\"\n");
  EXPECT_NE(e.find("s.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("{sede}"), std::string::npos) << e;

  e = ErrorOf("threshold = 0.8\n[[entries]]\nname = \"x\"\ncommand = \"run {seed}\"\n");
  EXPECT_NE(e.find("{log}"), std::string::npos) << e;

  e = ErrorOf("threshold = 0.8\n[[entries]]\nname = \"x\"\ncommand = \"run {log}\"\nlog_format = \"csv\"\n");
  EXPECT_NE(e.find("entries[0].log_format"), std::string::npos) << e;

  e = ErrorOf("threshold = 0.8\n[[entries]]\nname = \"x\"\ncommand = \"run {log} {epochs}\"\n");
  EXPECT_NE(e.find("{epochs}"), std::string::npos) << e;

  e = ErrorOf("[[entries]]\nname = \"baseline\"\nlog_format = \"jsonl\"\n");
  EXPECT_NE(e.find("entries[0].log_format"), std::string::npos) << e;

  e = ErrorOf("threshold = 0.8\n[[entries]]\nname = \"../up\"\ncommand = \"run {log}\"\n");
  EXPECT_NE(e.find("entries[0].name"), std::string::npos) << e;

  // "${HOME}" belongs to the shell, not to the template.
  EXPECT_EQ(ErrorOf("threshold = 0.8\n[[entries]]\nname = \"x\"\ncommand = \"${HOME}/run {log}\"\n"), "");
}

TEST(StudyPlanTest, FlagErrorsNameTheFlag) {
  PlanOverrides overrides;
  overrides.jobs = 0;
  std::string e = ErrorOf("entries = [\"baseline\"]\n", overrides);
  EXPECT_NE(e.find("--jobs"), std::string::npos) << e;
}

TEST(StudyPlanTest, RoundTripsThroughJson) {
  StudyPlan plan = Parse(R"(
seed = 3
runs = 2
extra_thresholds = [0.85]
keep_models = true
stop_at_target = true
timeout_seconds = 60
evals_per_epoch = 4
entries = ["baseline", { name = "ext", command = "sh run.sh {seed} {log}", threshold = 0.8 }]
)");
  nlohmann::json json = PlanToJson(plan);
  StudyPlan back = PlanFromJson(json);
  EXPECT_EQ(PlanToJson(back), json);
  EXPECT_EQ(back.evals_per_epoch, 4);
  // A plan stored before evals_per_epoch existed evaluated once per epoch.
  nlohmann::json older = json;
  older.erase("evals_per_epoch");
  EXPECT_EQ(PlanFromJson(older).evals_per_epoch, 1);
  EXPECT_EQ(back.entries[1].command, "sh run.sh {seed} {log}");
  EXPECT_DOUBLE_EQ(back.entries[0].timeout_seconds, 60);
  EXPECT_TRUE(back.keep_models);
  nlohmann::json broken = json;
  broken.erase("schedule");
  EXPECT_THROW(PlanFromJson(broken), Error);
}

// A stored plan (SQLite, or an array manifest on a shared filesystem) whose integers are floats out of range, or
// negative seeds: an Error naming the key, not nlohmann's get<int>() of 1e100 (undefined behaviour; found by fuzzing
// the manifest). Integral floats that fit still read, and a seed takes the whole uint64 range.
TEST(StudyPlanTest, StoredIntegersOutOfRangeAreErrorsNamingTheKey) {
  const nlohmann::json json = PlanToJson(Parse("seed = 3\nruns = 2\nentries = [\"baseline\"]\n"));
  auto message = [](const nlohmann::json& stored) {
    try {
      (void)PlanFromJson(stored);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  nlohmann::json runs = json;
  runs["runs"] = 1e100;
  EXPECT_NE(message(runs).find("plan.runs"), std::string::npos) << message(runs);
  nlohmann::json threads = json;
  threads["threads"] = 3e9;  // above INT_MAX
  EXPECT_NE(message(threads).find("plan.threads"), std::string::npos) << message(threads);
  nlohmann::json seed = json;
  seed["schedule"][0]["seed"] = -1;
  EXPECT_NE(message(seed).find("plan.seed"), std::string::npos) << message(seed);
  nlohmann::json subset = json;
  subset["entries"][0]["train_subset"] = -1e300;
  EXPECT_NE(message(subset).find("plan.train_subset"), std::string::npos) << message(subset);
  nlohmann::json slurm = json;
  slurm["slurm"] = {{"cpus_per_task", 1e100}, {"poll_seconds", -1}};
  EXPECT_EQ(PlanFromJson(slurm).slurm.cpus_per_task, 0);
  EXPECT_DOUBLE_EQ(PlanFromJson(slurm).slurm.poll_seconds, 5);

  nlohmann::json fine = json;
  fine["runs"] = 2.0;
  fine["seed"] = 18446744073709551615ull;
  EXPECT_EQ(PlanFromJson(fine).runs, 2);
  EXPECT_EQ(PlanFromJson(fine).seed, 18446744073709551615ull);
}

TEST(StudyPlanTest, ScheduleInterleavesEntriesAndSeedsAreDistinct) {
  StudyPlan plan = Parse("runs = 4\nentries = [\"baseline\", \"fast\", \"cyclic-lr\"]\n");
  ASSERT_EQ(plan.schedule.size(), 12u);
  for (int round = 0; round < 4; ++round) {
    std::set<std::string> in_round;
    for (int k = 0; k < 3; ++k) {
      const PlannedRun& run = plan.schedule[round * 3 + k];
      EXPECT_EQ(run.index, round);
      in_round.insert(run.entry);
    }
    EXPECT_EQ(in_round.size(), 3u);  // every entry once per round
  }
  std::set<uint64_t> seeds;
  for (const auto& run : plan.schedule) seeds.insert(run.seed);
  EXPECT_EQ(seeds.size(), 12u);
  // The same file gives the same plan.
  EXPECT_EQ(PlanToJson(Parse("runs = 4\nentries = [\"baseline\", \"fast\", \"cyclic-lr\"]\n")), PlanToJson(plan));
}

TEST(CommandTemplateTest, QuotesValuesAndKnowsSimpleCommands) {
  EXPECT_EQ(ExpandCommandTemplate("run --dir {run_dir} --s {seed}", {{"run_dir", "/a b/it's"}, {"seed", "7"}}),
            "run --dir '/a b/it'\\''s' --s 7");
  EXPECT_EQ(TemplatePlaceholders("a {x} ${y} {z_w}"), (std::vector<std::string>{"x", "z_w"}));
  EXPECT_TRUE(IsSimpleShellCommand("python3 x.py --log {log} 2>&1"));
  EXPECT_TRUE(IsSimpleShellCommand("python3 'a;b' \"c|d\""));
  EXPECT_FALSE(IsSimpleShellCommand("cd x && run"));
  EXPECT_FALSE(IsSimpleShellCommand("run | tee log"));
  EXPECT_FALSE(IsSimpleShellCommand("A=1 run"));
  EXPECT_FALSE(IsSimpleShellCommand("run $(date)"));
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// The study files shipped in studies/ are valid plans.
TEST(ShippedStudiesTest, ParseAndValidate) {
  const auto dir = evalsuite::testing::SourceDir() / "studies";
  int files = 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (file.path().extension() != ".toml") continue;
    ++files;
    SCOPED_TRACE(file.path().string());
    StudyPlan plan = LoadStudyPlan(file.path(), {}, 2);
    EXPECT_EQ(plan.name, file.path().stem().string());
    EXPECT_FALSE(plan.entries.empty());
    EXPECT_EQ(plan.schedule.size(), plan.entries.size() * plan.runs);
  }
  EXPECT_GE(files, 3);
  StudyPlan quick = LoadStudyPlan(dir / "quick.toml", {}, 2);
  EXPECT_GE(quick.entries.size(), 3u);
  EXPECT_GE(quick.runs, 5);
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// Issue 13 point 9: a crossing that holds for k evaluations is a plan key, recorded in the effective plan; it makes
// no sense for runs stopped at their first crossing. External entries may declare their validation size.
TEST(StudyPlanTest, ConsecutiveEvaluationsAndValidationSize) {
  StudyPlan plan = ParseStudyPlan(R"(
entries = ["baseline", { name = "ext", command = "sh run.sh {seed} {log}", threshold = 0.8, validation_size = 10000 }]
[stability]
consecutive_evaluations = 2
)",
                                  "/studies/s.toml", {}, 4);
  EXPECT_EQ(plan.analysis.rule.consecutive_evaluations, 2u);
  EXPECT_EQ(plan.entries[1].validation_size, 10000);
  const nlohmann::json json = PlanToJson(plan);
  EXPECT_EQ(json["stability"]["consecutive_evaluations"], 2);
  const StudyPlan back = PlanFromJson(json);
  EXPECT_EQ(back.analysis.rule.consecutive_evaluations, 2u);
  EXPECT_EQ(back.entries[1].validation_size, 10000);
  nlohmann::json older = json;
  older["stability"].erase("consecutive_evaluations");
  EXPECT_EQ(PlanFromJson(older).analysis.rule.consecutive_evaluations, 1u);

  try {
    ParseStudyPlan("stop_at_target = true\nentries = [\"baseline\"]\n[stability]\nconsecutive_evaluations = 3\n",
                   "/studies/s.toml", {}, 4);
    FAIL() << "k consecutive evaluations with stop_at_target passed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("s.toml:4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stop_at_target = false"), std::string::npos) << e.what();
  }
  try {
    ParseStudyPlan("entries = [{ name = \"baseline\", validation_size = 5 }]\n", "/studies/s.toml", {}, 4);
    FAIL() << "a built-in entry took a validation size";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("validation_size"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// machine_ceilings: "measure" unless the environment's default, the file or the flag (in that order of strength)
// says otherwise; a file named in the study is relative to its folder; the choice does not change the study.
TEST(StudyPlanTest, MachineCeilingsKeyDefaultsFlagAndFingerprint) {
  const std::string base = "entries = [\"baseline\"]\n";
  EXPECT_EQ(Parse(base).machine_ceilings, "measure");
  PlanOverrides by_default;
  by_default.machine_ceilings_default = "skip";
  EXPECT_EQ(Parse(base, by_default).machine_ceilings, "skip");
  EXPECT_EQ(Parse(base + "machine_ceilings = \"measure\"\n", by_default).machine_ceilings, "measure");
  const StudyPlan from_file = Parse(base + "machine_ceilings = \"profiles/m.json\"\n");
  EXPECT_EQ(from_file.machine_ceilings, "/studies/profiles/m.json");
  PlanOverrides flag;
  flag.machine_ceilings = "skip";
  EXPECT_EQ(Parse(base + "machine_ceilings = \"profiles/m.json\"\n", flag).machine_ceilings, "skip");
  EXPECT_NE(ErrorOf(base + "machine_ceilings = \"\"\n").find("s.toml:2: key 'machine_ceilings'"), std::string::npos)
      << ErrorOf(base + "machine_ceilings = \"\"\n");

  EXPECT_EQ(PlanFromJson(PlanToJson(from_file)).machine_ceilings, "/studies/profiles/m.json");
  nlohmann::json old_plan = PlanToJson(from_file);
  old_plan.erase("machine_ceilings");  // stored before the key existed: measured once on resume
  EXPECT_EQ(PlanFromJson(old_plan).machine_ceilings, "measure");
  EXPECT_EQ(PlanFingerprint(from_file), PlanFingerprint(Parse(base)));
}

}  // namespace
}  // namespace evalsuite::study

namespace evalsuite::study {
namespace {

// Issue 26: the precision of built-in entries and the verdict's basis are plan keys, stored with the plan (and
// fingerprinted: they change results); a bad value names the file, line and key.
TEST(StudyPlanTest, PrecisionAndStabilityBasisKeys) {
  StudyPlan plan = ParseStudyPlan("entries = [\"fast\"]\nprecision = \"fp32\"\n[stability]\nbasis = \"epochs\"\n",
                                  "/studies/s.toml", {}, 2);
  EXPECT_EQ(plan.precision, "fp32");
  EXPECT_EQ(plan.analysis.rule.basis, "epochs");
  const nlohmann::json stored = PlanToJson(plan);
  EXPECT_EQ(stored["precision"], "fp32");
  EXPECT_EQ(stored["stability"]["basis"], "epochs");
  const StudyPlan back = PlanFromJson(stored);
  EXPECT_EQ(back.precision, "fp32");
  EXPECT_EQ(back.analysis.rule.basis, "epochs");
  StudyPlan defaults = ParseStudyPlan("entries = [\"fast\"]\n", "/studies/s.toml", {}, 2);
  EXPECT_EQ(defaults.precision, "auto");
  EXPECT_EQ(defaults.analysis.rule.basis, "time");
  EXPECT_NE(PlanFingerprint(defaults), PlanFingerprint(plan));
  // Plans stored before the keys existed read as the defaults.
  nlohmann::json old = PlanToJson(defaults);
  old.erase("precision");
  old["stability"].erase("basis");
  EXPECT_EQ(PlanFromJson(old).precision, "auto");
  EXPECT_EQ(PlanFromJson(old).analysis.rule.basis, "time");

  try {
    ParseStudyPlan("entries = [\"fast\"]\nprecision = \"fp16\"\n", "/studies/s.toml", {}, 2);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("s.toml:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("precision"), std::string::npos) << e.what();
  }
  try {
    ParseStudyPlan("entries = [\"fast\"]\n[stability]\nbasis = \"wall\"\n", "/studies/s.toml", {}, 2);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stability.basis"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace evalsuite::study
