// The one counting rule (analysis/run_counting.h): which attempts count, one counted run per run index (the latest
// counted attempt), and the tallies every output prints.
#include "analysis/run_counting.h"

#include <gtest/gtest.h>

#include <vector>

namespace evalsuite::analysis {
namespace {

Run Attempt(int index, int attempt, RunStatus status, double tta = 10) {
  Run run;
  run.index = index;
  run.attempt = attempt;
  run.status = status;
  run.points = {{tta / 2, 0.5}, {tta, 0.95}};
  run.epochs = {1, 2};
  run.time_spent = tta;
  return run;
}

TEST(RunCountingTest, EachStatusGoesWhereTheRuleSays) {
  EXPECT_EQ(CountOf(RunStatus::kReached), RunCount::kCounted);
  EXPECT_EQ(CountOf(RunStatus::kNotReached), RunCount::kCounted);
  EXPECT_EQ(CountOf(RunStatus::kFailed), RunCount::kCounted);
  EXPECT_EQ(CountOf(RunStatus::kUnended), RunCount::kCounted);  // an import without its end: MLPerf's failure
  EXPECT_EQ(CountOf(RunStatus::kInterrupted), RunCount::kInterrupted);
  EXPECT_EQ(CountOf(RunStatus::kDidNotRun), RunCount::kDidNotRun);
}

TEST(RunCountingTest, ARunIndexCountsOnceAsItsLatestCountedAttempt) {
  Entry e;
  e.runs = {Attempt(0, 0, RunStatus::kReached, 10), Attempt(1, 0, RunStatus::kDidNotRun),
            Attempt(1, 1, RunStatus::kReached, 12), Attempt(2, 0, RunStatus::kInterrupted),
            Attempt(2, 1, RunStatus::kNotReached, 30),
            // A Slurm task that ran twice to its end: the later attempt is the run.
            Attempt(3, 0, RunStatus::kReached, 14), Attempt(3, 1, RunStatus::kReached, 16),
            Attempt(4, 0, RunStatus::kDidNotRun)};
  const std::vector<const analysis::Run*> counted = CountedRuns(e);
  ASSERT_EQ(counted.size(), 4u);
  EXPECT_EQ(counted[0], &e.runs[0]);
  EXPECT_EQ(counted[1], &e.runs[2]);
  EXPECT_EQ(counted[2], &e.runs[4]);
  EXPECT_EQ(counted[3], &e.runs[6]);
  const AttemptTally tally = TallyAttempts(e);
  EXPECT_EQ(tally.counted, 4);
  EXPECT_EQ(tally.interrupted, 1);
  EXPECT_EQ(tally.did_not_run, 2);
  EXPECT_EQ(tally.superseded, 1);
  EXPECT_EQ(CountedFlags(e), (std::vector<bool>{true, false, true, false, true, false, true, false}));
  // Leading runs stop at the first index without a counted run (4 did not run).
  EXPECT_EQ(LeadingCountedRuns(e).size(), 4u);
  EXPECT_EQ(DidNotRunAttempts(e).size(), 2u);
  const CountedCurves curves = CountedCurvesOf(e);
  ASSERT_EQ(curves.time.size(), 4u);
  EXPECT_DOUBLE_EQ(curves.time[3].time_spent, 16);
  ASSERT_TRUE(curves.epochs);
  EXPECT_EQ(curves.epochs->size(), 4u);
}

TEST(RunCountingTest, AttemptsSharingANumberAllCountSoNothingIsDroppedSilently) {
  // Inputs not from the store (attempt 0 everywhere) with a repeated index keep both runs.
  const std::vector<AttemptKey> keys = {{0, 0, RunStatus::kReached}, {0, 0, RunStatus::kNotReached}};
  EXPECT_EQ(CountedPositions(keys), (std::vector<std::size_t>{0, 1}));
}

TEST(RunCountingTest, EpochCurvesOnlyWhenEveryCountedRunLoggedEpochs) {
  Entry e;
  e.runs = {Attempt(0, 0, RunStatus::kReached), Attempt(1, 0, RunStatus::kReached)};
  e.runs[1].epochs.clear();
  EXPECT_FALSE(CountedCurvesOf(e).epochs);
  // A run that does not count does not take the epochs away.
  e.runs[1].status = RunStatus::kDidNotRun;
  EXPECT_TRUE(CountedCurvesOf(e).epochs);
}

TEST(RunCountingTest, TheStatusOfAnAttemptIsDecidedOnce) {
  EXPECT_EQ(StatusOfAttempt(EndedAs::kNoEnd, false, /*resumable=*/true), RunStatus::kInterrupted);
  EXPECT_EQ(StatusOfAttempt(EndedAs::kNoEnd, false, /*resumable=*/false), RunStatus::kUnended);
  EXPECT_EQ(StatusOfAttempt(EndedAs::kFailed, true, true), RunStatus::kDidNotRun);
  EXPECT_EQ(StatusOfAttempt(EndedAs::kReached, false, false), RunStatus::kReached);
  for (RunStatus s : {RunStatus::kReached, RunStatus::kNotReached, RunStatus::kFailed, RunStatus::kInterrupted,
                      RunStatus::kUnended, RunStatus::kDidNotRun}) {
    EXPECT_EQ(ParseRunStatusKey(RunStatusKey(s)), s);
  }
  EXPECT_FALSE(ParseRunStatusKey("incomplete"));
  EXPECT_STREQ(RunStatusName(RunStatus::kUnended), "incomplete");  // report.json's name for both
}

TEST(RunCountingTest, CauseOfNotRunDropsTheOpeningWords) {
  std::string label;
  EXPECT_EQ(CauseOfNotRun("did not run: killed by signal 4 (SIGILL)", &label), "killed by signal 4 (SIGILL)");
  EXPECT_EQ(label, "DID NOT RUN");
  EXPECT_EQ(CauseOfNotRun("died of its environment: no space", &label), "no space");
  EXPECT_EQ(label, "DIED OF ITS ENVIRONMENT");
  EXPECT_EQ(CauseOfNotRun("boom", &label), "boom");
  EXPECT_EQ(label, "FAILED");
}

}  // namespace
}  // namespace evalsuite::analysis
