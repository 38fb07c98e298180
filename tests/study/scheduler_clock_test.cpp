// The scheduler's clock and sleep are seams (SchedulerConfig::now, ::sleep): an hour-long timeout is tested in
// milliseconds, and every wait of the poll loop goes through the injected sleeper.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "study/study_runner.h"
#include "tests/study/fake_entries.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;

TEST(SchedulerClockTest, AnHourLongTimeoutPassesOnTheInjectedClock) {
  TempDir dir;
  StudyPlan plan = testing::FakeStudyPlan(dir, R"(
name = "clock"
runs = 1
jobs = 1
threshold = 0.85
entries = [
  { name = "hang", command = "sh {study_dir}/fake_entry.sh {log} {seed} hang", timeout_seconds = 3600 },
]
)");
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  double now = 1000;
  int sleeps = 0;
  options.scheduler.now = [&] { return now; };
  options.scheduler.sleep = [&](double) {
    ++sleeps;
    now += 600;  // ten minutes per poll on the injected clock
    // real time for the child to start, write its evaluations and die: 5 ms a poll was too little for a child
    // starved by other work on two cores (a sanitizer run beside a style check failed it twice)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  };
  const auto started = std::chrono::steady_clock::now();
  const StudyOutcome outcome = RunStudy(plan, options);
  const double real_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  EXPECT_EQ(outcome.ran, 1);
  // Killed at its timeout after its evaluations had reached 0.85: its TTA stands, so the one counting rule
  // (analysis::CountsAsFailed) counts it as reached, neither failed nor did-not-run.
  EXPECT_EQ(outcome.failed, 0);
  EXPECT_EQ(outcome.did_not_run, 0);
  EXPECT_LT(real_seconds, 25) << "the timeout waited on the real clock";
  EXPECT_GE(sleeps, 6);  // 3600 s at 600 s per poll
  auto store = store::RunStore::Open(dir / "store.db", false);
  const std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("clock")->id);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_NE(runs[0].log.error.find("timed out after 3600 s"), std::string::npos) << runs[0].log.error;
}

}  // namespace
}  // namespace evalsuite::study
