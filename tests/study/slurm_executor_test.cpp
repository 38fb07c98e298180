// The Slurm executor's parts that need no cluster: the [slurm] table and the sbatch options it stands for, sbatch
// missing or refusing (a clear error, no run recorded), how a task that Slurm ended without an end record is
// recorded (time limit, node failure, out of memory, preemption, cancel, a vanished node), a requeued task counted
// once, and the parsers of squeue, scontrol and sacct output. The real cluster is in tests/cli/slurm_cluster_cli_test.
#include "study/execution/slurm_executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "common/error.h"
#include "common/json_guard.h"
#include "study/execution/failure_cause.h"
#include "study/execution/json_record_file.h"
#include "study/execution/run_execution.h"
#include "study/execution/run_folder_record.h"
#include "study/execution/slurm_task.h"
#include "study/plans/study_plan_loader.h"
#include "study/study_runner.h"
#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::ReadFile;
using evalsuite::testing::ScopedEnv;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

constexpr const char* kSlurmStudy = R"(name = "sl"
runs = 1
seed = 3
threshold = 0.85
executor = "slurm"
entries = [ { name = "fake", command = "sh {study_dir}/fake_entry.sh {log} {seed} ok" } ]
[slurm]
partition = "gpu"
account = "proj42"
time_limit = "01:30:00"
gpus_per_task = 1
mem = "8G"
max_concurrent = 3
sbatch_options = ["--qos=long", "--exclusive"]
poll_seconds = 0.05
)";

StudyPlan SlurmPlan(const TempDir& dir, const std::string& body = kSlurmStudy) {
  testing::WriteFakeEntry(dir.path());
  PlanOverrides overrides;
  overrides.out_dir = (dir / "runs").string();
  return ParseStudyPlan(body, (dir / "study.toml").string(), overrides, 2);
}

// A folder of fake Slurm commands, put first on PATH for the scope (alone on it: `only`, so the real ones are
// not found either).
class FakeSlurm {
 public:
  explicit FakeSlurm(const TempDir& dir, bool only = false)
      : bin_(dir / "fakebin"), path_("PATH", bin_.string() + (only ? "" : ":/usr/bin:/bin")) {
    fs::create_directories(bin_);
  }
  void Add(const std::string& name, const std::string& script) {
    WriteFile(bin_ / name, "#!/bin/sh\n" + script);
    fs::permissions(bin_ / name, fs::perms::owner_all);
  }

 private:
  fs::path bin_;
  ScopedEnv path_;
};

TEST(SlurmOptionsTest, TableBecomesSbatchOptionsAndStaysOutOfTheFingerprint) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  EXPECT_EQ(plan.executor, "slurm");
  EXPECT_EQ(SbatchResourceOptions(plan.slurm, plan.threads),
            (std::vector<std::string>{"--partition=gpu", "--account=proj42", "--time=01:30:00", "--cpus-per-task=1",
                                      "--gpus-per-task=1", "--mem=8G", "--qos=long", "--exclusive"}));
  StudyPlan back = PlanFromJson(PlanToJson(plan));
  EXPECT_EQ(back.executor, "slurm");
  EXPECT_EQ(back.slurm.max_concurrent, 3);
  EXPECT_EQ(back.slurm.sbatch_options, plan.slurm.sbatch_options);
  StudyPlan local = plan;
  local.executor = "local";
  local.slurm = SlurmOptions{};
  EXPECT_EQ(PlanFingerprint(local), PlanFingerprint(plan));  // where runs execute changes no number
}

TEST(SlurmOptionsTest, BadKeysAndValuesNameFileLineAndKey) {
  TempDir dir;
  auto message = [&](const std::string& body) {
    try {
      SlurmPlan(dir, body);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "name = \"x\"\nentries = [\"baseline\"]\n";
  EXPECT_NE(message(head + "[slurm]\npartiton = \"gpu\"\n").find("study.toml:4: key 'slurm.partiton': unknown key"),
            std::string::npos);
  EXPECT_NE(message(head + "[slurm]\npartition = \"gpu --qos=x\"\n")
                .find("key 'slurm.partition': 'gpu --qos=x' is "
                      "not a single sbatch value"),
            std::string::npos);
  EXPECT_NE(message(head + "[slurm]\nsbatch_options = [\"--array=0-3\"]\n").find("set by evalsuite itself"),
            std::string::npos);
  EXPECT_NE(message(head + "executor = \"kubernetes\"\n").find("study.toml:3: key 'executor'"), std::string::npos);
}

TEST(SlurmExecutorTest, SbatchMissingIsAClearErrorAndRecordsNoRun) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  FakeSlurm slurm(dir, /*only=*/true);
  slurm.Add("squeue", "exit 0\n");  // no sbatch at all
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  try {
    RunStudy(plan, options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kExternal);
    EXPECT_NE(std::string(e.what()).find("sbatch: not found on PATH"), std::string::npos) << e.what();
  }
  auto store = store::RunStore::Open(options.store_file, false);
  EXPECT_TRUE(store->LoadRuns(store->FindStudy("sl")->id).empty());
  EXPECT_FALSE(fs::exists(ManifestPath(plan, 1))) << "a manifest claims runs that were never submitted";
}

TEST(SlurmExecutorTest, SbatchRefusingQuotesSlurmAndRecordsNoRun) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  FakeSlurm slurm(dir);
  slurm.Add("sbatch",
            "echo \"$@\" > \"$(dirname \"$0\")/args\"\n"
            "echo 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n");
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  options.evalsuite_binary = "/opt/evalsuite";
  try {
    RunStudy(plan, options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kExternal);
    EXPECT_NE(std::string(e.what()).find("invalid partition specified: gpu"), std::string::npos) << e.what();
  }
  // What it was asked: the table's options, one array of the missing run at most 3 at once, the batch script.
  const std::string args = ReadFile(dir / "fakebin" / "args");
  EXPECT_NE(args.find("--parsable --partition=gpu --account=proj42 --time=01:30:00 --cpus-per-task=1 "
                      "--gpus-per-task=1 --mem=8G --qos=long --exclusive --array=0-0%3 --job-name=evalsuite-sl"),
            std::string::npos)
      << args;
  auto store = store::RunStore::Open(options.store_file, false);
  EXPECT_TRUE(store->LoadRuns(store->FindStudy("sl")->id).empty());
  EXPECT_FALSE(fs::exists(ManifestPath(plan, 1)));
}

// A run folder as an array task leaves it when Slurm kills it: start record, a log with `evals` evaluations, no end.
fs::path KilledTaskFolder(const StudyPlan& plan, int evals) {
  fs::path run_dir = RunDirFor(plan, "fake", 0);
  fs::create_directories(run_dir);
  // What the task wrote before its run started (run_folder_record.h).
  WriteRunFolderRecord(run_dir, plan, *plan.FindEntry("fake"), *plan.FindRun("fake", 0), nullptr);
  WriteJsonFileAtomically(run_dir / kTaskStartFile, {{"slurm",
                                                      {{"job_id", "501"},
                                                       {"array_job_id", "500"},
                                                       {"array_task_id", "0"},
                                                       {"node", "gpu-07"},
                                                       {"restart_count", 0}}}});
  std::string log = "{\"type\":\"header\",\"entry\":\"fake\"}\n";
  for (int i = 1; i <= evals; ++i) {
    log += "{\"type\":\"eval\",\"epoch\":" + std::to_string(i) + ",\"train_seconds\":" + std::to_string(10 * i) +
           ",\"wall_seconds\":" + std::to_string(11 * i) + ",\"metric\":0.8" + std::to_string(i) + "}\n";
  }
  WriteFile(run_dir / kRunLogFile, log);
  return run_dir;
}

store::RunRecord Conclude(const std::string& state, int evals, const std::string& node = "gpu-07") {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  fs::path run_dir = KilledTaskFolder(plan, evals);
  std::optional<SlurmTaskState> final_state;
  if (!state.empty()) final_state = SlurmTaskState{state, node, "None", "0:9"};
  return ConcludeTaskWithoutEnd(plan, plan.entries[0], plan.schedule[0], run_dir, final_state);
}

TEST(SlurmExecutorTest, TasksSlurmEndedAreRecordedWithTheReason) {
  store::RunRecord timeout = Conclude("TIMEOUT", 2);
  EXPECT_EQ(timeout.log.status, analysis::EndedAs::kFailed);
  EXPECT_EQ(timeout.log.error, "timed out: killed by Slurm at its time limit (--time=01:30:00)");
  EXPECT_FALSE(store::DidNotRun(timeout));  // it trained: a failure of the entry within its budget, as a local timeout
  EXPECT_EQ(timeout.log.points.size(), 2u);
  EXPECT_EQ(timeout.execution["slurm"]["state"], "TIMEOUT");
  EXPECT_EQ(timeout.execution["slurm"]["job_id"], "501");

  store::RunRecord oom = Conclude("OUT_OF_MEMORY", 1);
  EXPECT_EQ(oom.log.status, analysis::EndedAs::kFailed);
  EXPECT_TRUE(store::DidNotRun(oom)) << "the machine's doing: left out of the statistics and run again";
  EXPECT_NE(oom.log.error.find("out of memory: Slurm killed the task on gpu-07"), std::string::npos);

  store::RunRecord node = Conclude("NODE_FAIL", 1);
  EXPECT_TRUE(store::DidNotRun(node));
  EXPECT_NE(node.log.error.find("the node on gpu-07 failed under the run (Slurm NODE_FAIL)"), std::string::npos)
      << node.log.error;

  store::RunRecord early_timeout = Conclude("TIMEOUT", 0);
  EXPECT_TRUE(store::DidNotRun(early_timeout));  // killed before its first evaluation: it did not run

  for (const char* state : {"PREEMPTED", "CANCELLED"}) {
    store::RunRecord interrupted = Conclude(state, 1);
    EXPECT_EQ(interrupted.log.status, analysis::EndedAs::kNoEnd) << state;
    EXPECT_FALSE(store::IsFinishedRun(interrupted));
    EXPECT_EQ(interrupted.log.points.size(), 1u);
  }
  EXPECT_NE(Conclude("PREEMPTED", 1).log.error.find("preempted by Slurm"), std::string::npos);

  store::RunRecord vanished = Conclude("", 1);  // Slurm no longer knows the task; its node went away
  EXPECT_EQ(vanished.log.status, analysis::EndedAs::kNoEnd);
  EXPECT_NE(vanished.log.error.find("without an end record and Slurm no longer knows it (its node on gpu-07 vanished"),
            std::string::npos)
      << vanished.log.error;
  EXPECT_EQ(vanished.execution["slurm"]["state"], "UNKNOWN");
}

TEST(SlurmExecutorTest, RequeuedTaskRunsAfreshAndIsCountedOnce) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  // The first try of array task 0 was killed after one evaluation; Slurm requeued it.
  fs::path run_dir = KilledTaskFolder(plan, 1);
  ArrayManifest manifest;
  manifest.sequence = 1;
  manifest.job_id = "500";
  manifest.plan = PlanToJson(plan);
  manifest.tasks = {{plan.schedule[0], run_dir}};
  fs::create_directories(SlurmDir(plan));
  WriteManifest(ManifestPath(plan, 1), manifest);
  {
    ScopedEnv job("SLURM_JOB_ID", "501"), array("SLURM_ARRAY_JOB_ID", "500"), task("SLURM_ARRAY_TASK_ID", "0"),
        node("SLURMD_NODENAME", "gpu-09"), restart("SLURM_RESTART_COUNT", "1");
    EXPECT_EQ(RunSlurmTask(ManifestPath(plan, 1), 0, "/unused"), 0);
    const std::string log = ReadFile(run_dir / kRunLogFile);
    const std::string cut = ReadFile(fs::path(run_dir.string() + ".attempt-1") / kRunLogFile);
    EXPECT_NE(cut.find("\"metric\":0.81"), std::string::npos) << "the cut try was not kept aside";
    EXPECT_NE(log.find("\"type\":\"end\""), std::string::npos) << "the requeued task did not run afresh";
    EXPECT_TRUE(fs::exists(run_dir / kTaskEndFile));
    // Requeued once more after its end (a node failure after the task wrote its end record): nothing runs again.
    EXPECT_EQ(RunSlurmTask(ManifestPath(plan, 1), 0, "/unused"), 0);
    EXPECT_EQ(ReadFile(run_dir / kRunLogFile), log);
    EXPECT_FALSE(fs::exists(run_dir.string() + ".attempt-2"));
  }
  // The coordinator (squeue: the array has left the queue) records the run once and the cut try as incomplete.
  FakeSlurm slurm(dir);
  slurm.Add("squeue", "exit 0\n");
  slurm.Add("sbatch", "echo 'sbatch must not be called: nothing is missing' >&2\nexit 1\n");
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  StudyOutcome first = RunStudy(plan, options);
  EXPECT_EQ(first.ingested_on_resume, 1);
  EXPECT_EQ(first.interrupted_kept, 1);
  StudyOutcome second = RunStudy(plan, options);  // again: nothing new
  EXPECT_EQ(second.finished_before, 1);
  EXPECT_EQ(second.ingested_on_resume + second.ran + second.interrupted_kept, 0);
  auto store = store::RunStore::Open(options.store_file, false);
  std::vector<store::RunRecord> runs = store->LoadRuns(store->FindStudy("sl")->id);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].log.status, analysis::EndedAs::kNoEnd);
  EXPECT_NE(runs[0].log.error.find("requeued by Slurm"), std::string::npos);
  EXPECT_EQ(runs[0].log.points.size(), 1u);
  EXPECT_EQ(runs[1].log.status, analysis::EndedAs::kReached);
  EXPECT_EQ(runs[1].log.points.size(), 3u);
  // One folder rule for every executor: the finished try in run-000, the cut one in run-000.attempt-1.
  EXPECT_EQ(fs::path(runs[0].run_dir), fs::path(run_dir.string() + ".attempt-1"));
  EXPECT_EQ(fs::path(runs[1].run_dir), run_dir);
  EXPECT_EQ(runs[1].execution["slurm"]["node"], "gpu-09");
  EXPECT_EQ(runs[1].execution["slurm"]["restart_count"], 1);
  EXPECT_GT(runs[1].execution["usage"]["max_rss_kb"].get<long>(), 0);
  // What the node did to the run, sampled by the task there and stored as a local run's contention record.
  const nlohmann::json& contention = runs[1].execution["contention"];
  ASSERT_TRUE(contention.is_object()) << runs[1].execution.dump();
  EXPECT_TRUE(contention["other_busy_cores"].is_number()) << contention.dump();
  EXPECT_TRUE(contention["steal_fraction"].is_number()) << contention.dump();
  EXPECT_GE(contention["cores"].get<int>(), 1) << contention.dump();
  EXPECT_TRUE(contention["load_average_1m"].is_object()) << contention.dump();
  EXPECT_NE(contention["seen_from"].get<std::string>().find("Slurm task"), std::string::npos);
  EXPECT_TRUE(fs::exists(run_dir / kTaskContentionFile));
  EXPECT_FALSE(runs[0].execution.contains("contention")) << "the cut try's folder (written by hand here) has none";
}

// The watch loop waits on the injected clock and sleeper (SchedulerConfig::now, ::sleep), as the local scheduler
// does: an hour between polls passes in milliseconds, and every wait goes through the sleeper. A watchdog stops the
// study after a few real seconds, so a loop that waits on the real clock fails here instead of hanging.
TEST(SlurmExecutorTest, WatchLoopWaitsOnTheInjectedClockAndSleeper) {
  TempDir dir;
  std::string body = kSlurmStudy;
  body.replace(body.find("poll_seconds = 0.05"), std::string("poll_seconds = 0.05").size(), "poll_seconds = 3600");
  StudyPlan plan = SlurmPlan(dir, body);
  FakeSlurm slurm(dir);
  slurm.Add("sbatch", "echo 700\n");
  const fs::path polls = dir / "squeue-calls";
  slurm.Add("squeue", "echo x >> '" + polls.string() + "'\necho '700_0|PENDING||Priority'\n");

  std::atomic<bool> stop{false};
  StudyRunOptions options;
  options.store_file = dir / "s.db";
  options.stop = &stop;
  double now = 1000;
  int sleeps = 0;
  options.scheduler.now = [&] { return now; };
  options.scheduler.sleep = [&](double) {
    ++sleeps;
    now += 600;                               // an hour's poll interval is six naps on this clock
    if (now >= 1000 + 3 * 3600) stop = true;  // during the third wait
  };
  std::atomic<bool> finished{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 200 && !finished; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  const auto started = std::chrono::steady_clock::now();
  const StudyOutcome outcome = RunStudy(plan, options);
  const double real_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  finished = true;
  watchdog.join();

  EXPECT_TRUE(outcome.stopped);
  EXPECT_LT(real_seconds, 8) << "the watch loop waited on the real clock";
  EXPECT_EQ(sleeps, 18) << "every wait of three polls an hour apart goes through the injected sleeper";
  // Two polls ended their wait; the third wait was stopped before it polled.
  const std::string calls = ReadFile(polls);
  EXPECT_EQ(std::count(calls.begin(), calls.end(), 'x'), 2) << calls;
}

// What Slurm prints goes into the store's JSON (node, reason): bytes that are not UTF-8 (a site's wrapper, a cut
// pipe) are read as U+FFFD, as the importers read logs, instead of making the store's JSON writer throw later.
TEST(SlurmClientTest, BytesThatAreNotUtf8AreReadAsReplacementCharacters) {
  auto queue = ParseSqueue(std::string("812_3|RUNNING|node\xff") + "17|No\xc3\n");
  ASSERT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue["812_3"].node, std::string("node\xef\xbf\xbd") + "17");
  EXPECT_EQ(queue["812_3"].reason, "No\xef\xbf\xbd");
  auto job = ParseScontrolJob("JobId=815 JobState=TIMEOUT Reason=Time\xfeLimit NodeList=n\xc0\xaf\n");
  ASSERT_TRUE(job);
  EXPECT_TRUE(IsValidUtf8(job->reason)) << job->reason;
  EXPECT_TRUE(IsValidUtf8(job->node)) << job->node;
  auto sacct = ParseSacct("812_3|CANCELLED by 0|0:15|node\xff|None\n", "812_3");
  ASSERT_TRUE(sacct);
  EXPECT_EQ(sacct->node, "node\xef\xbf\xbd");
  store::RunRecord record;
  EXPECT_NO_THROW(record = Conclude("TIMEOUT", 1, job->node));
  EXPECT_NO_THROW((void)record.execution.dump());
}

// An end record this evalsuite did not write as it writes them (another version, a hand edit): fields of the wrong
// type are ignored, and the run is recorded from its log, instead of an exception stopping the coordinator with
// the other runs unrecorded.
TEST(SlurmExecutorTest, AnEndRecordWithFieldsOfTheWrongTypeIsReadForWhatItHolds) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  fs::path run_dir = KilledTaskFolder(plan, 2);
  WriteFile(run_dir / kTaskStartFile, R"({"slurm": {"node": 7, "job_id": [1]}})");
  WriteFile(run_dir / kTaskEndFile,
            R"({"slurm": 3, "exit_status": 1e300, "signal": "9", "timed_out": "yes", "oom_killed": 1,
                "wall_seconds": "long", "usage": "x", "gpu": []})");
  store::RunRecord ended;
  ASSERT_NO_THROW(ended = ConcludeTaskWithEnd(plan, plan.entries[0], plan.schedule[0], run_dir));
  EXPECT_EQ(ended.log.points.size(), 2u);
  EXPECT_EQ(ended.execution["slurm"]["state"], "COMPLETED");
  EXPECT_FALSE(ended.execution.contains("usage")) << "a usage that is not an object is not a usage";
  EXPECT_NO_THROW((void)ended.execution.dump());

  fs::remove(run_dir / kTaskEndFile);
  store::RunRecord cut;
  ASSERT_NO_THROW(cut = ConcludeTaskWithoutEnd(plan, plan.entries[0], plan.schedule[0], run_dir, std::nullopt));
  EXPECT_EQ(cut.log.status, analysis::EndedAs::kNoEnd);
  EXPECT_NE(cut.log.error.find("its node vanished"), std::string::npos) << cut.log.error;
}

// An array manifest whose integers are not ones this evalsuite writes (a float out of int's range, a negative seed):
// an error naming the manifest and the field, not nlohmann's get<int>() of 1e100 (undefined behaviour).
TEST(SlurmExecutorTest, AManifestsIntegersOutOfRangeAreErrorsNamingFileAndField) {
  TempDir dir;
  StudyPlan plan = SlurmPlan(dir);
  ArrayManifest manifest;
  manifest.sequence = 1;
  manifest.job_id = "500";
  manifest.plan = PlanToJson(plan);
  manifest.tasks = {{plan.schedule[0], RunDirFor(plan, "fake", 0)}};
  fs::create_directories(SlurmDir(plan));
  const fs::path file = ManifestPath(plan, 1);
  WriteManifest(file, manifest);
  const nlohmann::json good = nlohmann::json::parse(ReadFile(file));
  EXPECT_EQ(ReadManifest(file).tasks.size(), 1u);
  auto message = [&](const char* field, const nlohmann::json& value) {
    nlohmann::json bad = good;
    if (std::string(field) == "sequence")
      bad[field] = value;
    else
      bad["tasks"][0][field] = value;
    WriteFile(file, bad.dump());
    try {
      (void)ReadManifest(file);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (const auto& [field, value] :
       {std::pair<const char*, nlohmann::json>{"index", 1e100}, {"sequence", -3e300}, {"seed", -1}}) {
    const std::string what = message(field, value);
    EXPECT_NE(what.find(file.string() + ": " + field), std::string::npos) << what;
  }
}

TEST(SlurmClientTest, ParsesSqueueScontrolAndSacct) {
  auto queue = ParseSqueue("812_3|RUNNING|node17|None\n812_4|PENDING||JobArrayTaskLimit\n\n");
  ASSERT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue["812_3"].node, "node17");
  EXPECT_EQ(queue["812_4"].state, "PENDING");
  EXPECT_EQ(queue["812_4"].reason, "JobArrayTaskLimit");
  // `scontrol --oneliner show job 812_3` of an ended task (slurm 22.05, abridged).
  auto job = ParseScontrolJob(
      "JobId=815 ArrayJobId=812 ArrayTaskId=3 JobName=evalsuite-sl UserId=root(0) Priority=1 JobState=TIMEOUT "
      "Reason=TimeLimit Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 ExitCode=0:15 RunTime=00:01:00 "
      "TimeLimit=00:01:00 NodeList=node17 BatchHost=node17\n");
  ASSERT_TRUE(job);
  EXPECT_EQ(job->state, "TIMEOUT");
  EXPECT_EQ(job->reason, "TimeLimit");
  EXPECT_EQ(job->node, "node17");
  EXPECT_EQ(job->exit_code, "0:15");
  EXPECT_FALSE(ParseScontrolJob("slurm_load_jobs error: Invalid job id specified\n"));
  auto sacct = ParseSacct("812_2|COMPLETED|0:0|node16|None\n812_3|CANCELLED by 0|0:15|node17|None\n", "812_3");
  ASSERT_TRUE(sacct);
  EXPECT_EQ(sacct->state, "CANCELLED");
  EXPECT_EQ(sacct->node, "node17");
}

}  // namespace
}  // namespace evalsuite::study
