// The decisions about one attempt (analysis/run_decisions.h): "did not run" as the executors record it and as a
// schema-1 store's migration reads it back, and which counted runs count as failed.
#include "analysis/run_decisions.h"

#include <gtest/gtest.h>

#include <string>

#include "analysis/run_counting.h"

namespace evalsuite::analysis {
namespace {

TEST(RunDecisionsTest, AProcessThatDiedBeforeTrainingDidNotRun) {
  const ProcessFailure failure = DecideProcessFailure(/*trained=*/false, "command not found", false);
  EXPECT_TRUE(failure.did_not_run);
  EXPECT_EQ(failure.error, "did not run: command not found");
}

TEST(RunDecisionsTest, AProcessKilledByItsEnvironmentAfterTrainingDidNotRun) {
  const ProcessFailure failure = DecideProcessFailure(/*trained=*/true, "no space left on device", true);
  EXPECT_TRUE(failure.did_not_run);
  EXPECT_EQ(failure.error, "died of its environment: no space left on device");
}

TEST(RunDecisionsTest, ACrashAfterTrainingIsAFailureWithItsCauseAlone) {
  const ProcessFailure failure = DecideProcessFailure(/*trained=*/true, "killed by signal 11 (SIGSEGV)", false);
  EXPECT_FALSE(failure.did_not_run);
  EXPECT_EQ(failure.error, "killed by signal 11 (SIGSEGV)");
}

// The migration of a schema-1 store reads the decision back from the error's words: for every case the executors
// record, it must come to the same answer, or an old store's counts would change when it is opened.
TEST(RunDecisionsTest, TheWordsReadBackGiveTheDecisionTheExecutorMade) {
  for (bool trained : {false, true}) {
    for (bool environment : {false, true}) {
      const ProcessFailure failure = DecideProcessFailure(trained, "exit status 1", environment);
      EXPECT_EQ(DidNotRunByErrorWords(EndedAs::kFailed, /*has_points=*/trained, failure.error), failure.did_not_run)
          << "trained " << trained << ", environment " << environment;
    }
  }
}

TEST(RunDecisionsTest, OnlyAFailedEndReadsAsDidNotRun) {
  EXPECT_FALSE(DidNotRunByErrorWords(EndedAs::kReached, false, "did not run: x"));
  EXPECT_FALSE(DidNotRunByErrorWords(EndedAs::kNoEnd, false, "died of its environment: x"));
  // With evaluations, the did-not-run words alone (written before a run's first evaluation) do not make it so.
  EXPECT_FALSE(DidNotRunByErrorWords(EndedAs::kFailed, true, "did not run: x"));
  EXPECT_TRUE(DidNotRunByErrorWords(EndedAs::kFailed, true, "died of its environment: x"));
  EXPECT_FALSE(DidNotRunByErrorWords(EndedAs::kFailed, false, "exit status 1 (did not run: x)"));
}

Run RunWith(RunStatus status, std::vector<stats::CurvePoint> points, double time_spent) {
  Run run;
  run.status = status;
  run.points = std::move(points);
  run.time_spent = time_spent;
  return run;
}

TEST(RunDecisionsTest, AFailedRunCountsAsFailedUnlessItReachedFirst) {
  EXPECT_TRUE(CountsAsFailed(RunWith(RunStatus::kFailed, {{10, 0.5}, {20, 0.8}}, 20), 0.9, 1));
  EXPECT_FALSE(CountsAsFailed(RunWith(RunStatus::kFailed, {{10, 0.5}, {20, 0.95}}, 20), 0.9, 1))
      << "a crash after reaching keeps its TTA: reached";
  // Reaching once is not enough when the rule asks for two evaluations in a row.
  EXPECT_TRUE(CountsAsFailed(RunWith(RunStatus::kFailed, {{10, 0.5}, {20, 0.95}}, 20), 0.9, 2));
  EXPECT_TRUE(CountsAsFailed(RunWith(RunStatus::kFailed, {}, 0), 0.9, 1));
}

TEST(RunDecisionsTest, OtherStatusesNeverCountAsFailed) {
  for (RunStatus status : {RunStatus::kReached, RunStatus::kNotReached, RunStatus::kInterrupted, RunStatus::kUnended,
                           RunStatus::kDidNotRun}) {
    EXPECT_FALSE(CountsAsFailed(RunWith(status, {{10, 0.5}}, 10), 0.9, 1)) << RunStatusKey(status);
  }
}

}  // namespace
}  // namespace evalsuite::analysis
