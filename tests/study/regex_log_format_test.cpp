// log_format = "regex" in a study: the plan keys (checked when the plan is read, errors naming the file, line and
// key), a real study of an external python3 script that only prints to stdout, run by the local executor, read from
// the run folder's stdout.txt (bad lines reported with file and line), its progress, resume's use of the end line,
// and a Slurm array task's output read by the coordinator.
#include <gtest/gtest.h>

#include <map>

#include "common/error.h"
#include "study/execution/run_execution.h"
#include "study/execution/slurm_task.h"
#include "study/plans/log_formats.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::ScopedEnv;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

// The entry of the tests: PyTorch's ImageNet example's output (pytorch/examples imagenet/main.py), plus the line
// with the epoch's training time such a script adds.
constexpr const char* kRegexEntry = R"(
[[entries]]
name = "imagenet-example"
command = "/usr/bin/python3 {study_dir}/entry.py {seed}"
log_format = "regex"
log_regex = ['^Epoch: \[(?<epoch>\d+)\]',
             '^=> epoch \d+ train time (?<time>[\d.]+) s',
             '^ \* Acc@1 (?<accuracy>\S+) ']
log_metric_unit = "percent"
log_end_regex = '^=> done'
)";

PlanOverrides OutDir(const TempDir& dir) {
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  return overrides;
}

std::string RegexPlanError(const std::string& text) {
  try {
    ParseStudyPlan(text, "/studies/s.toml", {}, 2);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RegexLogFormatTest, PlanKeysAreReadAndSurviveTheStoredPlan) {
  StudyPlan plan = ParseStudyPlan(std::string("runs = 1\nthreshold = 0.9\n") + kRegexEntry, "/s/s.toml", {}, 2);
  const PlannedEntry& entry = plan.entries[0];
  EXPECT_EQ(entry.log_format, "regex");
  ASSERT_EQ(entry.regex_log.patterns.size(), 3u);
  EXPECT_EQ(entry.regex_log.patterns[0], R"(^Epoch: \[(?<epoch>\d+)\])");  // TOML literal strings: no escaping
  EXPECT_EQ(entry.regex_log.metric_unit, "percent");
  EXPECT_EQ(entry.regex_log.time_unit, "seconds");
  EXPECT_EQ(entry.regex_log.end_pattern, "^=> done");
  EXPECT_EQ(RunLogPath(entry, "/r/run-000"), "/r/run-000/stdout.txt");

  const StudyPlan back = PlanFromJson(PlanToJson(plan));
  EXPECT_EQ(back.entries[0].regex_log.patterns, entry.regex_log.patterns);
  EXPECT_EQ(back.entries[0].regex_log.metric_unit, "percent");
  EXPECT_EQ(back.entries[0].regex_log.end_pattern, "^=> done");
  // Entries of other formats store nothing new: plans fingerprinted before the format existed still match.
  StudyPlan jsonl = ParseStudyPlan("runs = 1\nthreshold = 0.9\nentries = [{ name = \"x\", command = \"run {log}\" }]\n",
                                   "/s/s.toml", {}, 2);
  EXPECT_FALSE(PlanToJson(jsonl)["entries"][0].contains("regex_log"));
}

TEST(RegexLogFormatTest, BadPatternsFailThePlanNamingFileLineAndKey) {
  const std::string head = "threshold = 0.9\n[[entries]]\nname = \"x\"\ncommand = \"run\"\nlog_format = \"regex\"\n";
  std::string e = RegexPlanError(head + "log_regex = ['t=(?<time>\\d+)', 'acc (?<accuracy>[\\d.]+']\n");
  EXPECT_NE(e.find("/studies/s.toml:6: key 'entries[0].log_regex[1]': does not compile at offset"), std::string::npos)
      << e;
  EXPECT_NE(e.find("missing closing parenthesis"), std::string::npos) << e;
  e = RegexPlanError(head + "log_regex = 'acc (?<accuracy>[\\d.]+)'\n");
  EXPECT_NE(e.find("s.toml:6: key 'entries[0].log_regex': no pattern has a named group (?<time>...)"),
            std::string::npos)
      << e;
  e = RegexPlanError(head + "log_regex = 't=(?<time>\\d+) (?<acc>[\\d.]+)'\n");
  EXPECT_NE(e.find("key 'entries[0].log_regex': named group (?<acc>...) is not one evalsuite reads"), std::string::npos)
      << e;
  e = RegexPlanError(head + "log_regex = 't=(?<time>\\d+) (?<accuracy>[\\d.]+)'\nlog_time_unit = \"s\"\n");
  EXPECT_NE(e.find("s.toml:7: key 'entries[0].log_time_unit': unknown unit 's'"), std::string::npos) << e;
  e = RegexPlanError(head + "log_regex = 't=(?<time>\\d+) (?<accuracy>[\\d.]+)'\nlog_end_regex = 'done ('\n");
  EXPECT_NE(e.find("s.toml:7: key 'entries[0].log_end_regex': does not compile"), std::string::npos) << e;
  e = RegexPlanError(head);
  EXPECT_NE(e.find("key 'entries[0].log_regex': log_format = \"regex\" needs log_regex"), std::string::npos) << e;
  e = RegexPlanError(head + "log_regex = 42\n");
  EXPECT_NE(e.find("key 'entries[0].log_regex': must be a string or an array of strings"), std::string::npos) << e;
  // The keys belong to the regex format, and a format read from stdout needs no {log}; others still do.
  e = RegexPlanError("threshold = 0.9\nentries = [{ name = \"x\", command = \"run {log}\", log_regex = 'x' }]\n");
  EXPECT_NE(e.find("key 'entries[0].log_regex': only for log_format = \"regex\""), std::string::npos) << e;
  e = RegexPlanError("threshold = 0.9\nentries = [{ name = \"x\", command = \"run\" }]\n");
  EXPECT_NE(e.find("must be told where to write its log"), std::string::npos) << e;
  EXPECT_EQ(RegexPlanError(head + "log_regex = 't=(?<time>\\d+) (?<accuracy>[\\d.]+)'\n"), "");
}

// A real python3 process that only prints, as the ImageNet example does, through the local executor: the run
// folder keeps its stdout.txt, the store gets the curve read from it, a value that is not a number is a warning
// naming stdout.txt and its line, and the status comes from the points and the threshold.
TEST(RegexLogFormatTest, StudyOfAScriptThatOnlyPrints) {
  TempDir dir;
  WriteFile(dir / "entry.py", R"PY(import sys
seed = int(sys.argv[1])
print("=> creating model 'resnet18'")
print(" * Acc@1 nan Acc@5 nan")  # line 2: an evaluation before training, not a number
for epoch, acc1 in enumerate([71.25, 88.5, 91.75]):
    for batch in (1, 391):
        print(f"Epoch: [{epoch}][{batch:3d}/391]\tTime  0.105 ( 0.110)\tLoss 1.2e+00 (1.3e+00)\tAcc@1  50.00 ( 48.00)")
    print(f"=> epoch {epoch} train time {12.5 * (epoch + 1) + seed % 3:.2f} s")
    print(f" * Acc@1 {acc1:.3f} Acc@5 99.000", flush=True)
print("=> done")
print(" * Acc@1 99.000 Acc@5 99.000")  # after the end line: not read
print("a warning on stderr", file=sys.stderr)
)PY");
  StudyPlan plan = ParseStudyPlan(std::string("name = \"printed\"\nruns = 2\nthreshold = 0.9\n") + kRegexEntry,
                                  (dir / "study.toml").string(), OutDir(dir), 2);
  StudyRunOptions options;
  options.store_file = dir / "store.db";
  options.scheduler.poll_seconds = 0.01;
  StudyOutcome outcome = RunStudy(plan, options);
  EXPECT_EQ(outcome.ran, 2);
  EXPECT_EQ(outcome.failed, 0);
  auto store = store::RunStore::Open(dir / "store.db", false);
  std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("printed")->id);
  ASSERT_EQ(runs.size(), 2u);
  for (const store::RunRecord& run : runs) {
    const double offset = static_cast<double>(run.seeds.run.value_or(0) % 3);
    ASSERT_EQ(run.log.points.size(), 3u) << run.log.error;
    EXPECT_DOUBLE_EQ(run.log.points[0].epoch, 0);
    EXPECT_DOUBLE_EQ(run.log.points[0].metric, 0.7125);
    EXPECT_DOUBLE_EQ(run.log.points[2].metric, 0.9175);
    EXPECT_DOUBLE_EQ(run.log.points[2].train_seconds, 37.5 + offset);
    EXPECT_DOUBLE_EQ(run.log.train_seconds, 37.5 + offset);
    EXPECT_EQ(run.log.status, analysis::EndedAs::kReached);
    const std::string stdout_file = run.run_dir + "/stdout.txt";
    ASSERT_EQ(run.log.warnings.size(), 1u) << run.log.warnings[0];
    EXPECT_EQ(run.log.warnings[0], stdout_file + ":2: accuracy \"nan\" is not a number; line skipped");
    EXPECT_NE(evalsuite::testing::ReadFile(stdout_file).find("=> done"),
              std::string::npos);  // the output is kept whole
    EXPECT_NE(run.stderr_tail.find("a warning on stderr"), std::string::npos);
  }
}

TEST(RegexLogFormatTest, ProgressAndResumeReadTheOutput) {
  TempDir dir;
  StudyPlan plan = ParseStudyPlan(std::string("runs = 1\nthreshold = 0.9\n") + kRegexEntry,
                                  (dir / "study.toml").string(), OutDir(dir), 2);
  const PlannedEntry& entry = plan.entries[0];
  const auto run_dir = dir / "run-000";
  std::filesystem::create_directories(run_dir);
  // Still running: the last whole evaluation is the progress; a line being written is not read.
  WriteFile(run_dir / "stdout.txt", "Epoch: [4][1/9]\n=> epoch 4 train time 60 s\n * Acc@1 80.5 Acc@5 9\n * Acc@1 8");
  LogProgress progress = PeekRunProgress(entry, run_dir);
  ASSERT_TRUE(progress.epoch && progress.metric);
  EXPECT_DOUBLE_EQ(*progress.epoch, 4);
  EXPECT_DOUBLE_EQ(*progress.metric, 0.805);
  // A run a killed study left behind counts on resume only when its output has the end line.
  EXPECT_FALSE(CollectCompletedOrphan(plan, entry, plan.schedule[0], run_dir));
  WriteFile(run_dir / "stdout.txt", "=> epoch 0 train time 60 s\n * Acc@1 93.5 Acc@5 99\n=> done\n");
  std::optional<store::RunRecord> record = CollectCompletedOrphan(plan, entry, plan.schedule[0], run_dir);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->log.status, analysis::EndedAs::kReached);
  EXPECT_DOUBLE_EQ(record->log.points.at(0).train_seconds, 60);
}

// On Slurm the array task runs the run as the local executor does, so the script's output lands in the run
// folder's stdout.txt on the shared filesystem; the coordinator (here with a fake squeue: the array has left the
// queue) reads it with the entry's patterns when it ingests the run.
TEST(RegexLogFormatTest, SlurmTaskKeepsTheOutputAndTheCoordinatorReadsIt) {
  TempDir dir;
  WriteFile(dir / "entry.sh", "echo 'epoch 1 t=10 acc=0.5'\necho 'epoch 2 t=20 acc=0.93'\necho 'done'\n");
  StudyPlan plan = ParseStudyPlan(R"(name = "sl-regex"
runs = 1
threshold = 0.9
executor = "slurm"
[[entries]]
name = "printer"
command = "sh {study_dir}/entry.sh"
log_format = "regex"
log_regex = 'epoch (?<epoch>\d+) t=(?<time>\d+) acc=(?<accuracy>[\d.]+)'
log_end_regex = '^done'
[slurm]
poll_seconds = 0.05
)",
                                  (dir / "study.toml").string(), OutDir(dir), 2);
  const std::filesystem::path run_dir = RunDirFor(plan, "printer", 0);
  ArrayManifest manifest;
  manifest.sequence = 1;
  manifest.job_id = "700";
  manifest.plan = PlanToJson(plan);
  manifest.tasks = {{plan.schedule[0], run_dir}};
  std::filesystem::create_directories(SlurmDir(plan));
  WriteManifest(ManifestPath(plan, 1), manifest);
  {
    ScopedEnv job("SLURM_JOB_ID", "701"), array("SLURM_ARRAY_JOB_ID", "700"), task("SLURM_ARRAY_TASK_ID", "0"),
        node("SLURMD_NODENAME", "node-3");
    EXPECT_EQ(RunSlurmTask(ManifestPath(plan, 1), 0, "/unused"), 0);
  }
  EXPECT_EQ(evalsuite::testing::ReadFile(run_dir / "stdout.txt"),
            "epoch 1 t=10 acc=0.5\nepoch 2 t=20 acc=0.93\ndone\n");
  const std::filesystem::path bin = dir / "fakebin";
  std::filesystem::create_directories(bin);
  WriteFile(bin / "squeue", "#!/bin/sh\nexit 0\n");
  WriteFile(bin / "sbatch", "#!/bin/sh\necho 'nothing is missing' >&2\nexit 1\n");
  for (const char* tool : {"squeue", "sbatch"}) {
    std::filesystem::permissions(bin / tool, std::filesystem::perms::owner_all);
  }
  ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  EXPECT_EQ(RunStudy(plan, options).ingested_on_resume, 1);
  auto store = store::RunStore::Open(options.store_file, false);
  std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("sl-regex")->id);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].log.points.size(), 2u) << runs[0].log.error;
  EXPECT_DOUBLE_EQ(runs[0].log.points[1].train_seconds, 20);
  EXPECT_DOUBLE_EQ(runs[0].log.points[1].metric, 0.93);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kReached);
  EXPECT_EQ(runs[0].execution["slurm"]["node"], "node-3");
}

}  // namespace
}  // namespace evalsuite::study
