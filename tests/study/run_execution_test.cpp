// Pieces of a run's execution: the command line of a built-in run, the tail of stderr, and the progress
// peeked from a log that is still being written.
#include "study/execution/run_execution.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/child_process.h"
#include "study/execution/progress.h"
#include "study/plans/study_plan_loader.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

bool HasSubsequence(const std::vector<std::string>& argv, const std::vector<std::string>& sequence) {
  return std::search(argv.begin(), argv.end(), sequence.begin(), sequence.end()) != argv.end();
}

TEST(RunExecutionTest, BuiltinRunsCallEvalsuiteTrainWithThePlansSettings) {
  StudyPlan plan = ParseStudyPlan(
      "runs = 1\nthreads = 3\nepochs = 2\ntrain_subset = 100\nkeep_models = true\n"
      "stop_at_target = true\nentries = [\"fast\"]\n",
      "/s/q.toml", {}, 2);
  const PlannedRun& run = plan.schedule[0];
  ChildSpec spec = BuildChildSpec(plan, plan.entries[0], run, "/r/run-000", "/bin/evalsuite");
  EXPECT_EQ(spec.argv[0], "/bin/evalsuite");
  EXPECT_TRUE(HasSubsequence(spec.argv, {"train", "fast", "--seed", std::to_string(run.seed)}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--threads", "3"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--epochs", "2"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--target", "0.91"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--train-subset", "100"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--stop-at-target"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--log", "/r/run-000/log.jsonl"}));
  EXPECT_TRUE(HasSubsequence(spec.argv, {"--model-dir", "/r/run-000/model"}));
  EXPECT_FALSE(HasSubsequence(spec.argv, {"--evals-per-epoch"}));  // the default, once per epoch, is not spelled out
  EXPECT_EQ(spec.environment["OMP_NUM_THREADS"], "3");
  plan.evals_per_epoch = 4;
  EXPECT_TRUE(HasSubsequence(BuildChildSpec(plan, plan.entries[0], run, "/r/run-000", "/bin/evalsuite").argv,
                             {"--evals-per-epoch", "4"}));
  EXPECT_EQ(RunDirFor(plan, "fast", 7).filename(), "run-007");
  EXPECT_EQ(AsideDirFor(RunDirFor(plan, "fast", 7), 2).filename(), "run-007.attempt-2");
}

TEST(RunExecutionTest, ExternalRunsGoThroughTheShellWithQuotedValues) {
  StudyPlan plan = ParseStudyPlan(
      "runs = 1\nthreshold = 0.5\n[[entries]]\nname = \"x\"\n"
      "command = \"run --log {log} --dir {study_dir}\"\n",
      "/my studies/q.toml", {}, 2);
  ChildSpec spec = BuildChildSpec(plan, plan.entries[0], plan.schedule[0], "/r/run-000", "/bin/evalsuite");
  ASSERT_EQ(spec.argv.size(), 3u);
  EXPECT_EQ(spec.argv[0], "/bin/sh");
  EXPECT_EQ(spec.argv[2], "exec run --log /r/run-000/log.jsonl --dir '/my studies'");
}

TEST(RunExecutionTest, TailKeepsTheLastLines) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 50; ++i) text += "line " + std::to_string(i) + "\n";
  WriteFile(dir / "err.txt", text);
  std::string tail = TailOfFile(dir / "err.txt", 3);
  EXPECT_EQ(tail, "line 47\nline 48\nline 49");
  EXPECT_EQ(TailOfFile(dir / "missing.txt"), "");
}

TEST(RunExecutionTest, PeeksTheLastEvaluationOfALogBeingWritten) {
  TempDir dir;
  WriteFile(dir / "log.jsonl",
            "{\"type\":\"header\"}\n{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":1,\"metric\":0.5}\n"
            "{\"type\":\"eval\",\"epoch\":2,\"train_seconds\":2,\"metric\":0.7}\n{\"type\":\"ev");
  LogProgress progress = PeekLogProgress(dir / "log.jsonl");
  ASSERT_TRUE(progress.epoch.has_value());
  EXPECT_DOUBLE_EQ(*progress.epoch, 2);
  EXPECT_DOUBLE_EQ(*progress.metric, 0.7);
  EXPECT_FALSE(PeekLogProgress(dir / "none.jsonl").epoch.has_value());
}

// Regression: a log line whose "type" is not a string made the live peek throw nlohmann's type_error, which ended
// the study as an internal error whenever the scheduler peeked before the run had ended (BadLogCliTest, flaky).
TEST(RunExecutionTest, PeekingALogWhoseTypeIsNotAStringFindsNoProgress) {
  TempDir dir;
  WriteFile(dir / "log.jsonl", "{\"type\":1}\n");
  LogProgress progress;
  EXPECT_NO_THROW(progress = PeekLogProgress(dir / "log.jsonl"));
  EXPECT_FALSE(progress.epoch.has_value());
  WriteFile(dir / "log.jsonl", "{\"type\":\"eval\",\"epoch\":1,\"metric\":0.5}\n{\"type\":[1]}\n");
  EXPECT_NO_THROW(progress = PeekLogProgress(dir / "log.jsonl"));
  ASSERT_TRUE(progress.epoch.has_value());
  EXPECT_DOUBLE_EQ(*progress.epoch, 1);
}

TEST(RunExecutionTest, FormatsDurations) {
  EXPECT_EQ(FormatDuration(65), "1:05");
  EXPECT_EQ(FormatDuration(3725), "1:02:05");
  EXPECT_EQ(FormatDuration(-3), "0:00");
}

}  // namespace
}  // namespace evalsuite::study
