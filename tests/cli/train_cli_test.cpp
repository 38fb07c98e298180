// `evalsuite entries` and `evalsuite train` end to end: the listing, errors a user can act on (unknown
// entry, bad number, unwritable log, missing data), and one tiny real run with its log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

const char* const kEntryNames[] = {"baseline", "cyclic-lr", "large-batch", "progressive-resize", "bf16", "fast"};

bool HaveFashionMnist() { return std::filesystem::is_directory("/usr/share/datasets/fashion-mnist"); }

TEST(EntriesCli, ListsEveryEntryWithThresholdAndBudget) {
  const CommandResult table = RunEvalsuite({"entries"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, AllOf(HasSubstr("threshold"), HasSubstr("epochs"), HasSubstr("val_top1")));
  for (const char* name : kEntryNames) EXPECT_THAT(table.out, HasSubstr(name));

  const CommandResult json = RunEvalsuite({"entries", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json entries = nlohmann::json::parse(json.out);
  ASSERT_GE(entries.size(), 6u);
  for (const auto& entry : entries) {
    EXPECT_EQ(entry["metric"], "val_top1");
    EXPECT_TRUE(entry["threshold"].is_number());
    EXPECT_TRUE(entry["epoch_budget"].is_number_integer());
    EXPECT_TRUE(entry["hyperparameters"].contains("batch_size"));
  }
}

TEST(TrainCli, UnknownEntryListsTheValidOnes) {
  const CommandResult r = RunEvalsuite({"train", "resnet50"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("resnet50"));
  for (const char* name : kEntryNames) EXPECT_THAT(r.err, HasSubstr(name));
}

TEST(TrainCli, BadNumberNamesTheOption) {
  const CommandResult epochs = RunEvalsuite({"train", "baseline", "--epochs", "ten"});
  EXPECT_EQ(epochs.exit_code, 2);
  EXPECT_THAT(epochs.err, HasSubstr("--epochs"));
  const CommandResult target = RunEvalsuite({"train", "baseline", "--target", "1.5"});
  EXPECT_EQ(target.exit_code, 2);
  EXPECT_THAT(target.err, HasSubstr("--target"));
  const CommandResult threads = RunEvalsuite({"train", "baseline", "--threads", "2x"});
  EXPECT_EQ(threads.exit_code, 2);
  EXPECT_THAT(threads.err, HasSubstr("--threads"));
  // Checked before any data is loaded: a bad value fails at once even with a data folder that does not exist.
  const CommandResult evals =
      RunEvalsuite({"train", "baseline", "--evals-per-epoch", "0", "--data", "/nonexistent-evalsuite-data"});
  EXPECT_EQ(evals.exit_code, 2);
  EXPECT_THAT(evals.err, HasSubstr("--evals-per-epoch"));
  EXPECT_THAT(evals.err, ::testing::Not(HasSubstr("nonexistent")));
}

TEST(TrainCli, UnwritableLogIsReportedBeforeTraining) {
  TempDir dir;
  WriteFile(dir / "file", "not a folder");
  const std::string log = (dir / "file" / "run.jsonl").string();
  const CommandResult r = RunEvalsuite({"train", "baseline", "--log", log});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr(log), HasSubstr("cannot open the run log")));
  EXPECT_THAT(r.out, Not(HasSubstr("epoch")));
}

TEST(TrainCli, MissingDataNamesTheFolderAndTheFiles) {
  TempDir dir;
  const CommandResult r = RunEvalsuite({"train", "baseline", "--data", dir.path().string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr(dir.path().string()), HasSubstr("train-images-idx3-ubyte")));
}

TEST(TrainCli, TinyRunWritesItsLogAndPrintsTheSummary) {
  if (!HaveFashionMnist()) GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  TempDir dir;
  const std::string log = (dir / "logs" / "run.jsonl").string();
  const CommandResult r =
      RunEvalsuite({"train", "fast", "--seed", "4", "--threads", "1", "--epochs", "1", "--train-subset", "1000",
                    "--target", "0.3", "--log", log, "--model-dir", (dir / "models").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("TTA"), HasSubstr("status reached"), HasSubstr("threads 1")));
  const std::string text = ReadFile(log);
  EXPECT_THAT(text, AllOf(HasSubstr("\"type\":\"header\""), HasSubstr("\"type\":\"eval\""),
                          HasSubstr("\"status\":\"reached\""), HasSubstr("\"entry\":\"fast\"")));
  EXPECT_TRUE(std::filesystem::exists(dir / "models" / "at_target.pt"));
  EXPECT_TRUE(std::filesystem::exists(dir / "models" / "final.pt"));
  EXPECT_TRUE(std::filesystem::exists(dir / "models" / "model.json"));
}

}  // namespace
}  // namespace evalsuite::testing
