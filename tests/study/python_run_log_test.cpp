// examples/evalsuite_log.py, the stdlib-only writer of evalsuite's run log for users' own scripts: a study runs a
// Python entry that uses it in its three calls, reading {log}/{seed} from argv or, without arguments, from
// evalsuite's environment; evalsuite reads back every evaluation, the seed, and training time without evaluation.
#include <gtest/gtest.h>

#include <filesystem>

#include "evalsuite/study/study_runner.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

TEST(PythonRunLogTest, ThreeCallsGiveEvalsuiteItsLogFromArgvOrEnvironment) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TempDir dir;
  // Each epoch: 0.05 s of "training" inside log.training(), then 0.1 s of "evaluation" outside it.
  WriteFile(dir / "entry.py", "import sys, time\nsys.path.insert(0, '" + (evalsuite::testing::SourceDir() / "examples").string() +
                                  "')\nfrom evalsuite_log import RunLog\nlog = RunLog.from_args()\n"
                                  "log.header('py', threshold=0.85)\nfor e in (1, 2, 3):\n"
                                  "    with log.training():\n        time.sleep(0.05)\n    time.sleep(0.1)\n"
                                  "    log.eval(e, metric=0.8 + 0.03 * e)\nlog.end()\n");
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  StudyPlan plan = ParseStudyPlan(R"(
name = "py"
runs = 1
seed = 9
threshold = 0.85
jobs = 2
entries = [
  { name = "argv", command = "/usr/bin/python3 {study_dir}/entry.py --seed {seed} --log {log}" },
  { name = "env", command = "cd {run_dir} && /usr/bin/python3 {study_dir}/entry.py" },
]
)",
                                  (dir / "s.toml").string(), overrides, 2);
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  RunStudy(plan, options);
  auto store = RunStore::Open(options.store_file, false);
  std::vector<RunRecord> runs = store->LoadRuns(store->FindStudy("py")->id);
  ASSERT_EQ(runs.size(), 2u);
  for (const RunRecord& run : runs) {
    SCOPED_TRACE(run.entry);
    EXPECT_EQ(run.log.status, runlog::RunStatus::kReached) << run.log.error;
    ASSERT_EQ(run.log.points.size(), 3u);
    EXPECT_DOUBLE_EQ(run.log.points[2].metric, 0.89);
    EXPECT_EQ(run.seeds["run"], plan.FindRun(run.entry, run.run_index)->seed);  // the header's seed is the one evalsuite passed
    // Training time excludes the evaluations: about 0.15 s of 0.45 s.
    EXPECT_GE(run.log.points[2].train_seconds, 0.14);
    EXPECT_LT(run.log.points[2].train_seconds, run.log.points[2].wall_seconds - 0.25);
    EXPECT_TRUE(run.log.warnings.empty()) << run.log.warnings.front();
  }
}

}  // namespace
}  // namespace evalsuite::study
