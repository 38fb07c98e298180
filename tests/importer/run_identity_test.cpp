// The one place that decides an imported run's entry and its metric's scale (importer/run_identity.h): which names
// only number runs, how runs group into entries under each --group-by, what the grouping prints, and how a threshold
// is read onto a rate's scale.
#include "importer/run_identity.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace evalsuite::importer {
namespace {

RunIdentityFacts Facts(const std::string& folder, std::map<std::string, std::string> hp = {},
                       const std::string& run_name = "") {
  RunIdentityFacts f;
  std::string part;
  for (const char c : folder + "/") {
    if (c == '/') {
      if (!part.empty()) f.folders.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  f.hyperparameters = std::move(hp);
  if (!f.hyperparameters.empty()) f.hyperparameter_source = "hparams.yaml";
  f.run_name = run_name;
  f.label = folder + "/metrics.csv";
  return f;
}

std::vector<std::string> Names(const EntryGrouping& g) {
  std::vector<std::string> names;
  for (std::size_t e : g.entry_of_run) names.push_back(g.entries[e].name);
  return names;
}

TEST(RunIdentityTest, NamesThatOnlyNumberARunAreNoEntryNames) {
  for (const char* name : {"seed1",
                           "seed_2",
                           "seed-3",
                           "seed=4",
                           "s42",
                           "run_3",
                           "run3",
                           "version_0",
                           "checkpoint-500",
                           "trial_7",
                           "rep2",
                           "exp",
                           "exp2",
                           "train",
                           "train3",
                           "42",
                           "0",
                           "2024-05-01_12-00-00",
                           "12-00-00",
                           "0123456789abcdef0123456789abcdef",
                           "run-20240501_120000-abc123xy"}) {
    EXPECT_TRUE(IsRunInstanceName(name)) << name;
  }
  for (const char* name : {"baseline", "fast", "resnet50", "lr0.1", "bert-base", "seedless", "sweep", "v2-model",
                           "large", "results", "1e-4"}) {
    EXPECT_FALSE(IsRunInstanceName(name)) << name;
  }
  EXPECT_EQ(WithoutRunInstance("baseline-seed1"), "baseline");
  EXPECT_EQ(WithoutRunInstance("fast_seed_2"), "fast");
  EXPECT_EQ(WithoutRunInstance("lr=0.1,seed=3"), "lr=0.1");
  EXPECT_EQ(WithoutRunInstance("bert_s42"), "bert");
  EXPECT_EQ(WithoutRunInstance("resnet-50"), "resnet-50");  // a number inside a name is part of it
  EXPECT_EQ(WithoutRunInstance("seed1"), "");
  EXPECT_EQ(WithoutRunInstance("baseline-run-3"), "baseline");
  EXPECT_EQ(WithoutRunInstance("owner__repo__trainer_state"), "owner__repo__trainer_state");  // as written
}

TEST(RunIdentityTest, SeedsAndCheckpointsAreNotHyperparametersOfAnEntry) {
  for (const char* key : {"seed", "random_seed", "data_seed", "seed.init", "output_dir", "logging_dir", "run_name"}) {
    EXPECT_TRUE(IsPerRunHyperparameter(key)) << key;
  }
  for (const char* key : {"lr", "learning_rate", "batch_size", "model.depth", "seeds_per_batch_size"}) {
    EXPECT_FALSE(IsPerRunHyperparameter(key)) << key;
  }
}

// Issue 50 item 2: hf/<config>/<seed>/ gave one entry per seed folder ("seed1" held baseline and fast).
TEST(RunIdentityTest, ConfigFoldersAreEntriesAndSeedFoldersTheirRuns) {
  const std::vector<RunIdentityFacts> runs = {Facts("/x/hf/baseline/seed1"), Facts("/x/hf/baseline/seed2"),
                                              Facts("/x/hf/fast/seed1"), Facts("/x/hf/fast/seed2")};
  const EntryGrouping g = GroupRunsIntoEntries(runs, GroupBy{});
  EXPECT_EQ(Names(g), (std::vector<std::string>{"baseline", "baseline", "fast", "fast"}));
  EXPECT_EQ(g.differences, std::vector<std::string>{"folder"});
  EXPECT_TRUE(g.warnings.empty());
  const std::string shown = FormatEntryGrouping(g, runs);
  EXPECT_NE(shown.find("baseline <- 2 runs from hf/baseline/seed1, hf/baseline/seed2\n"), std::string::npos) << shown;
  EXPECT_NE(shown.find("fast     <- 2 runs from hf/fast/seed1, hf/fast/seed2\n"), std::string::npos) << shown;
  EXPECT_NE(shown.find("entries differ in: folder"), std::string::npos) << shown;
  // A folder name only as long as it needs to be: the same config name under two models stays two entries.
  const EntryGrouping two = GroupRunsIntoEntries({Facts("/x/bert/base/seed1"), Facts("/x/gpt/base/seed1")}, GroupBy{});
  EXPECT_EQ(Names(two), (std::vector<std::string>{"bert/base", "gpt/base"}));
}

TEST(RunIdentityTest, RecordedHyperparametersOtherThanTheSeedSplitAnEntryAndNameIt) {
  const std::vector<RunIdentityFacts> runs = {
      Facts("/x/cnn/lightning_logs/version_0", {{"lr", "0.1"}, {"seed", "1"}}),
      Facts("/x/cnn/lightning_logs/version_1", {{"lr", "0.1"}, {"seed", "2"}}),
      Facts("/x/cnn/lightning_logs/version_2", {{"lr", "0.01"}, {"seed", "1"}})};
  const EntryGrouping g = GroupRunsIntoEntries(runs, GroupBy{});
  EXPECT_EQ(Names(g), (std::vector<std::string>{"cnn lr=0.1", "cnn lr=0.1", "cnn lr=0.01"}));
  EXPECT_EQ(g.differences, std::vector<std::string>{"lr"});
  EXPECT_TRUE(g.warnings.empty());

  // --group-by path files them together, as asked, and says where they differ.
  const EntryGrouping by_path = GroupRunsIntoEntries(runs, GroupBy{GroupBy::Kind::kPath, {}});
  EXPECT_EQ(Names(by_path), (std::vector<std::string>{"cnn", "cnn", "cnn"}));
  ASSERT_EQ(by_path.warnings.size(), 1u);
  EXPECT_NE(by_path.warnings[0].find("entry \"cnn\": its runs differ in the recorded hyperparameter lr (0.01 in "),
            std::string::npos)
      << by_path.warnings[0];
  // --entry too.
  EXPECT_EQ(GroupRunsIntoEntries(runs, GroupBy{}, "mine").warnings.size(), 1u);

  // --group-by NAME: the values of that key, wherever the runs lie.
  const EntryGrouping by_key = GroupRunsIntoEntries(runs, ParseGroupBy({"lr"}));
  EXPECT_EQ(Names(by_key), (std::vector<std::string>{"lr=0.1", "lr=0.1", "lr=0.01"}));
}

TEST(RunIdentityTest, MlflowRunNamesSplitAnExperimentUnlessMlflowMadeThemUp) {
  const EntryGrouping named =
      GroupRunsIntoEntries({Facts("/m/mlruns/sweep", {}, "baseline-seed1"),
                            Facts("/m/mlruns/sweep", {}, "baseline-seed2"), Facts("/m/mlruns/sweep", {}, "fast-seed1")},
                           GroupBy{});
  EXPECT_EQ(Names(named), (std::vector<std::string>{"sweep/baseline", "sweep/baseline", "sweep/fast"}));
  EXPECT_EQ(named.differences, std::vector<std::string>{"run name"});
  const EntryGrouping generated = GroupRunsIntoEntries(
      {Facts("/m/mlruns/sweep", {}, "bemused-cow-123"), Facts("/m/mlruns/sweep", {}, "dim-owl-7")}, GroupBy{});
  EXPECT_EQ(Names(generated), (std::vector<std::string>{"sweep", "sweep"}));
}

TEST(RunIdentityTest, GroupByIsPathParamsOrNames) {
  EXPECT_EQ(ParseGroupBy({"path"}).kind, GroupBy::Kind::kPath);
  EXPECT_EQ(ParseGroupBy({"params"}).kind, GroupBy::Kind::kParams);
  const GroupBy keys = ParseGroupBy({"lr,batch_size", "model"});
  EXPECT_EQ(keys.kind, GroupBy::Kind::kKeys);
  EXPECT_EQ(keys.keys, (std::vector<std::string>{"lr", "batch_size", "model"}));
  EXPECT_THROW(ParseGroupBy({"path", "lr"}), Error);
  EXPECT_THROW(ParseGroupBy({","}), Error);
}

// Issue 50 item 3: a WER logged in percent (Whisper's recipe) with --threshold 0.35 was never reached, with no note.
TEST(RunIdentityTest, AThresholdOnTheOtherScaleOfARateIsConvertedWithANote) {
  const MetricScaleDecision wer_percent = DecideMetricScale(true, {60.2, 41.0, 25.5, 20.1});
  EXPECT_TRUE(wer_percent.percent);
  const ThresholdOnScale t = ThresholdOnMetricScale(0.35, wer_percent, "eval_wer", "<=", "a.json");
  EXPECT_DOUBLE_EQ(t.value, 35);
  EXPECT_EQ(t.note, "--threshold 0.35 read as a fraction: eval_wer is in percent, so the target is eval_wer <= 35 %");
  const MetricScaleDecision fraction = DecideMetricScale(true, {0.5, 0.7, 0.913});
  EXPECT_FALSE(fraction.percent);
  EXPECT_DOUBLE_EQ(ThresholdOnMetricScale(91, fraction, "acc", ">=", "a").value, 0.91);
  EXPECT_DOUBLE_EQ(ThresholdOnMetricScale(0.9, fraction, "acc", ">=", "a").value, 0.9);
  EXPECT_TRUE(ThresholdOnMetricScale(0.9, fraction, "acc", ">=", "a").note.empty());
  EXPECT_THROW(ThresholdOnMetricScale(140, fraction, "acc", ">=", "a"), Error);
  // Not a rate (a loss, BLEU): the value as typed.
  EXPECT_DOUBLE_EQ(ThresholdOnMetricScale(35, DecideMetricScale(false, {60}), "loss", "<=", "a").value, 35);
  EXPECT_TRUE(DeclaredRateScale(0, 100)->percent);
  EXPECT_FALSE(DeclaredRateScale(0, 1)->percent);
  EXPECT_FALSE(DeclaredRateScale(-1, 1).has_value());
}

}  // namespace
}  // namespace evalsuite::importer
