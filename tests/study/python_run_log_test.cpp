// examples/evalsuite_log.py, the stdlib-only writer of evalsuite's run log for users' own scripts: a study runs a
// Python entry that uses it in its three calls, reading {log}/{seed} from argv or, without arguments, from
// evalsuite's environment; evalsuite reads back every evaluation, the seed, and training time without evaluation.
#include <gtest/gtest.h>

#include <filesystem>

#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"
#include "study/study_summary.h"
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
  WriteFile(dir / "entry.py", "import sys, time\nsys.path.insert(0, '" +
                                  (evalsuite::testing::SourceDir() / "examples").string() +
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
  auto store = store::RunStore::Open(options.store_file, false);
  std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("py")->id);
  ASSERT_EQ(runs.size(), 2u);
  for (const store::RunRecord& run : runs) {
    SCOPED_TRACE(run.entry);
    EXPECT_EQ(run.log.status, analysis::EndedAs::kReached) << run.log.error;
    ASSERT_EQ(run.log.points.size(), 3u);
    EXPECT_DOUBLE_EQ(run.log.points[2].metric, 0.89);
    EXPECT_EQ(run.seeds.run,
              plan.FindRun(run.entry, run.run_index)->seed);  // the header's seed is the one evalsuite passed
    // Training time excludes the evaluations: about 0.15 s of 0.45 s.
    EXPECT_GE(run.log.points[2].train_seconds, 0.14);
    EXPECT_LT(run.log.points[2].train_seconds, run.log.points[2].wall_seconds - 0.25);
    EXPECT_TRUE(run.log.warnings.empty()) << run.log.warnings.front();
  }
}

// Issue 17: the helper's optional hardware facts reach the header, and the report input gives the entry a hardware
// row whose throughput is the log's own: 3 epochs x 1,000 samples over the last evaluation's training seconds.
// A NaN or negative declaration is refused by the helper before it reaches the log.
TEST(PythonRunLogTest, HardwareFactsGiveTheEntryAHardwareRow) {
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TempDir dir;
  const std::string prelude = "import sys, time\nsys.path.insert(0, '" +
                              (evalsuite::testing::SourceDir() / "examples").string() +
                              "')\nfrom evalsuite_log import RunLog\nlog = RunLog.from_args()\n";
  WriteFile(dir / "entry.py",
            prelude +
                "log.header('hw', threshold=0.85, flops_per_sample=2e9, bytes_per_sample=1e8,\n"
                "           samples_per_epoch=1000, device='NVIDIA A100-SXM4-40GB', precision='tf32')\n"
                "for e in (1, 2, 3):\n    with log.training():\n        time.sleep(0.02)\n"
                "    log.eval(e, metric=0.8 + 0.03 * e)\nlog.end()\n");
  WriteFile(dir / "bad.py", prelude +
                                "try:\n    log.header('hw', flops_per_sample=float('nan'))\n"
                                "except ValueError as e:\n    print(e)\n    sys.exit(7)\n");
  const std::string bad = "/usr/bin/python3 " + (dir / "bad.py").string() + " --log " + (dir / "bad.jsonl").string() +
                          " > " + (dir / "bad.out").string();
  EXPECT_EQ(WEXITSTATUS(std::system(bad.c_str())), 7);
  EXPECT_NE(evalsuite::testing::ReadFile(dir / "bad.out").find("flops_per_sample must be a finite number above 0"),
            std::string::npos);
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  StudyPlan plan = ParseStudyPlan(R"(
name = "hw"
runs = 1
seed = 9
threshold = 0.85
entries = [ { name = "hw", command = "/usr/bin/python3 {study_dir}/entry.py --seed {seed} --log {log}" } ]
)",
                                  (dir / "s.toml").string(), overrides, 1);
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  RunStudy(plan, options);
  auto store = store::RunStore::Open(options.store_file, false);
  const store::StudyInfo info = *store->FindStudy("hw");
  const std::vector<store::RunRecord> runs = store->LoadRuns(info.id);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].log.points.size(), 3u);
  EXPECT_TRUE(runs[0].log.warnings.empty()) << runs[0].log.warnings.front();
  const reports::StabilityReportInput input = BuildReportInput(*store, {info});
  const nlohmann::json& row = input.extra_sections["hardware"]["entries"][0];
  const double rate = 3000 / runs[0].log.points[2].train_seconds;
  EXPECT_DOUBLE_EQ(row["samples_per_second"].get<double>(), rate);
  EXPECT_DOUBLE_EQ(row["achieved_flops"].get<double>(), rate * 2e9);
  EXPECT_DOUBLE_EQ(row["mfu"].get<double>(), rate * 2e9 / 156e12);  // A100 TF32, dense
  EXPECT_DOUBLE_EQ(row["intensity"].get<double>(), 20.0);
}

}  // namespace
}  // namespace evalsuite::study
