// A real study on a real Slurm: the one-node cluster of tests/support/slurm_cluster.h, a study of small built-in
// runs submitted as one job array, its coordinator SIGKILLed mid-way and one running task scancelled, then resumed:
// every planned run is recorded exactly once, with its job id and node, and its accuracy curve is the one the local
// executor gives for the same seed. And tasks that Slurm itself ends, recorded with the state as real Slurm reports
// it (not a fake's): one that outlives its --time, one that a higher-priority job preempts.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/slurm_cluster.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::Query;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// entry/index -> the metrics of its finished run, in order.
std::map<std::string, std::vector<std::string>> Curves(const fs::path& db) {
  std::map<std::string, std::vector<std::string>> curves;
  for (const auto& row : Query(db, "SELECT r.entry || '/' || r.run_index, p.epoch || ':' || p.metric FROM runs r "
                                   "JOIN points p ON p.run_id = r.id WHERE r.status != 'incomplete' "
                                   "ORDER BY r.entry, r.run_index, p.seq")) {
    curves[row[0]].push_back(row[1]);
  }
  return curves;
}

bool WaitFor(const std::function<bool()>& condition, double seconds) {
  for (int i = 0; i < seconds * 20; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return condition();
}

TEST(SlurmClusterCliTest, KilledCoordinatorAndCancelledTaskResumeToEveryRunOnceWithLocalCurves) {
  if (!fs::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "no Fashion-MNIST";
  std::string why;
  auto cluster = testing::SlurmTestCluster::Start(2, &why);
  ASSERT_TRUE(cluster) << "cannot start the one-node Slurm cluster: " << why;

  TempDir dir;
  WriteFile(dir / "s.toml",
            "name = \"onslurm\"\nruns = 4\nseed = 11\nepochs = 2\ntrain_subset = 256\nthreshold = 0.2\nthreads = 1\n"
            "entries = [\"fast\"]\nexecutor = \"slurm\"\n"
            "[slurm]\npoll_seconds = 0.2\nmax_concurrent = 2\ncpus_per_task = 1\n");
  const fs::path local_db = dir / "local.db", slurm_db = dir / "slurm.db";
  const fs::path runs = dir / "slurm-runs";

  pid_t coordinator = testing::SpawnEvalsuite({"study", "run", (dir / "s.toml").string(), "--store",
                                               slurm_db.string(), "--out", runs.string(), "--progress", "plain"},
                                              dir / "o1.txt", dir / "e1.txt");
  ASSERT_GT(coordinator, 0);
  // Two tasks running (max_concurrent = 2): kill the coordinator, then scancel a task that has not ended.
  auto started = [&](int index) { return fs::exists(runs / "fast" / ("run-00" + std::to_string(index)) / "task-start.json"); };
  auto ended = [&](int index) { return fs::exists(runs / "fast" / ("run-00" + std::to_string(index)) / "task-end.json"); };
  int victim = -1;
  ASSERT_TRUE(WaitFor(
      [&] {
        for (int i = 0; i < 4; ++i) {
          if (started(i) && !ended(i)) victim = i;
        }
        return victim >= 0;
      },
      60))
      << testing::ReadFile(dir / "e1.txt");
  kill(coordinator, SIGKILL);
  int status = 0;
  waitpid(coordinator, &status, 0);
  auto manifest = nlohmann::json::parse(testing::ReadFile(runs / ".slurm" / "array-0001.json"));
  const std::string job = manifest["job_id"];
  ASSERT_FALSE(job.empty());
  const std::string victim_name = job + "_" + std::to_string(victim);
  auto cancelled = testing::RunCommand({"scancel", victim_name});
  ASSERT_EQ(cancelled.exit_code, 0) << cancelled.err;
  const bool victim_ended_first = ended(victim);  // it may have finished between the look and the scancel

  auto resumed = RunEvalsuite({"study", "resume", "onslurm", "--store", slurm_db.string(), "--progress", "plain"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out << resumed.err;

  // Every planned run exactly once among the finished records; the cancelled try kept as an incomplete attempt.
  auto finished = Query(slurm_db, "SELECT run_index, COUNT(*) FROM runs WHERE status != 'incomplete' GROUP BY "
                                  "run_index ORDER BY run_index");
  ASSERT_EQ(finished.size(), 4u);
  for (const auto& row : finished) EXPECT_EQ(row[1], "1") << "run " << row[0];
  if (!victim_ended_first) {
    auto incomplete = Query(slurm_db, "SELECT run_index, error FROM runs WHERE status = 'incomplete'");
    ASSERT_EQ(incomplete.size(), 1u);
    EXPECT_EQ(incomplete[0][0], std::to_string(victim));
    EXPECT_NE(incomplete[0][1].find("cancelled in Slurm"), std::string::npos) << incomplete[0][1];
    EXPECT_TRUE(fs::exists(runs / ".slurm" / "array-0002.json")) << "the cancelled run was not submitted again";
  }
  // Job id, node and state per run, and what it used.
  for (const auto& row : Query(slurm_db, "SELECT e.facts FROM run_execution e JOIN runs r ON r.id = e.run_id "
                                         "WHERE r.status != 'incomplete'")) {
    auto facts = nlohmann::json::parse(row[0]);
    EXPECT_EQ(facts["executor"], "slurm");
    EXPECT_EQ(facts["slurm"]["node"], testing::SlurmTestCluster::kNodeName);
    EXPECT_EQ(facts["slurm"]["state"], "COMPLETED");
    EXPECT_FALSE(facts["slurm"]["job_id"].get<std::string>().empty());
    EXPECT_GT(facts["usage"]["user_seconds"].get<double>(), 0.1);  // a LibTorch training, not a shell
    EXPECT_GT(facts["usage"]["max_rss_kb"].get<long>(), 50000);
  }
  // The local executor's curves for the same plan.
  auto local = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--executor", "local", "--store",
                             local_db.string(), "--out", (dir / "local-runs").string(), "--jobs", "2",
                             "--progress", "none"});
  ASSERT_EQ(local.exit_code, 0) << local.out << local.err;

  // Same seeds, same numbers: the curves are the local executor's.
  auto slurm_curves = Curves(slurm_db), local_curves = Curves(local_db);
  ASSERT_EQ(slurm_curves.size(), 4u);
  EXPECT_EQ(slurm_curves, local_curves);
}

// Slurm's time limit, enforced by the real slurmctld (its limit is whole minutes, checked every 30 s, so this test
// waits 60-95 s, mostly asleep): the entry evaluates once and then sleeps past --time=1; Slurm signals the task, the
// task writes no end record of its own, and the coordinator records a failed, timed-out run from the state
// scontrol reports, with the evaluation it made kept.
TEST(SlurmClusterCliTest, TaskKilledAtItsTimeLimitIsRecordedAsTimedOut) {
  std::string why;
  auto cluster = testing::SlurmTestCluster::Start(1, &why);
  ASSERT_TRUE(cluster) << "cannot start the one-node Slurm cluster: " << why;

  TempDir dir;
  // Sleeps 240 s at most: if Slurm never enforced the limit, the run ends "reached" and the test fails, not hangs.
  WriteFile(dir / "sleeper.sh",
            "#!/bin/sh\nlog=$1; seed=$2\n"
            "echo '{\"type\":\"header\",\"entry\":\"sleeper\",\"seeds\":{\"run\":'$seed'}}' > \"$log\"\n"
            "echo '{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"wall_seconds\":2,\"metric\":0.5}' >> \"$log\"\n"
            "sleep 240\n"
            "echo '{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":2}' >> \"$log\"\n");
  WriteFile(dir / "t.toml",
            "name = \"limit\"\nruns = 1\nseed = 5\nthreshold = 0.9\n"
            "entries = [ { name = \"sleeper\", command = \"sh {study_dir}/sleeper.sh {log} {seed}\" } ]\n"
            "executor = \"slurm\"\n[slurm]\ntime_limit = \"1\"\npoll_seconds = 0.5\ncpus_per_task = 1\n");
  const fs::path db = dir / "limit.db";
  const auto started = std::chrono::steady_clock::now();
  auto run = RunEvalsuite({"study", "run", (dir / "t.toml").string(), "--store", db.string(), "--out",
                           (dir / "runs").string(), "--progress", "plain"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_NE(run.exit_code, -1) << run.out << run.err;

  auto rows = Query(db, "SELECT r.status, r.error, e.facts, (SELECT COUNT(*) FROM points p WHERE p.run_id = r.id) "
                        "FROM runs r JOIN run_execution e ON e.run_id = r.id");
  ASSERT_EQ(rows.size(), 1u) << run.out << run.err;
  EXPECT_EQ(rows[0][0], "failed") << rows[0][1];
  EXPECT_EQ(rows[0][1], "timed out: killed by Slurm at its time limit (--time=1)");
  auto facts = nlohmann::json::parse(rows[0][2]);
  EXPECT_EQ(facts["slurm"]["state"], "TIMEOUT");
  EXPECT_EQ(facts["slurm"]["node"], testing::SlurmTestCluster::kNodeName);
  EXPECT_EQ(rows[0][3], "1") << "the evaluation made before the limit was lost";
  EXPECT_FALSE(fs::exists(dir / "runs" / "sleeper" / "run-000" / "task-end.json"))
      << "the task wrote an end record of its own: the run would be judged by it, not by Slurm";
  EXPECT_GE(seconds, 55.0) << "ended before a one-minute limit could have struck";
}

// Preemption by a job of a higher-tier partition (PreemptMode=CANCEL): the task's first try is recorded as an
// incomplete attempt with Slurm's reason (state PREEMPTED), the run is submitted again in the same invocation, and
// it is counted once, from its second try.
TEST(SlurmClusterCliTest, PreemptedTaskIsRecordedAsInterruptedAndRunAgainOnce) {
  std::string why;
  auto cluster = testing::SlurmTestCluster::Start(2, &why);
  ASSERT_TRUE(cluster) << "cannot start the one-node Slurm cluster: " << why;

  TempDir dir;
  // The first try marks itself and waits to be preempted (60 s at most); a later try ends at once.
  WriteFile(dir / "twice.sh",
            "#!/bin/sh\nlog=$1; seed=$2; here=$3\n"
            "echo '{\"type\":\"header\",\"entry\":\"twice\",\"seeds\":{\"run\":'$seed'}}' > \"$log\"\n"
            "echo '{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"wall_seconds\":2,\"metric\":0.5}' >> \"$log\"\n"
            "if [ ! -e \"$here/first-try\" ]; then touch \"$here/first-try\"; sleep 60; fi\n"
            "echo '{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":2}' >> \"$log\"\n");
  WriteFile(dir / "p.toml",
            "name = \"preempt\"\nruns = 1\nseed = 5\nthreshold = 0.4\n"
            "entries = [ { name = \"twice\", command = \"sh {study_dir}/twice.sh {log} {seed} {study_dir}\" } ]\n"
            "executor = \"slurm\"\n[slurm]\npoll_seconds = 0.2\ncpus_per_task = 1\n");
  const fs::path db = dir / "preempt.db";
  pid_t coordinator = testing::SpawnEvalsuite({"study", "run", (dir / "p.toml").string(), "--store", db.string(),
                                               "--out", (dir / "runs").string(), "--progress", "plain"},
                                              dir / "o.txt", dir / "e.txt");
  ASSERT_GT(coordinator, 0);
  ASSERT_TRUE(WaitFor([&] { return fs::exists(dir / "first-try"); }, 60)) << testing::ReadFile(dir / "e.txt");

  // Both CPUs for the urgent job: the task must make way.
  auto urgent =
      testing::RunCommand({"sbatch", "--parsable", "--partition", testing::SlurmTestCluster::kUrgentPartition,
                           "--cpus-per-task=2", "--output=" + (dir / "urgent.out").string(), "--wrap", "sleep 1"});
  ASSERT_EQ(urgent.exit_code, 0) << urgent.err;

  int status = 0;
  const bool ended = WaitFor([&] { return waitpid(coordinator, &status, WNOHANG) == coordinator; }, 90);
  if (!ended) kill(coordinator, SIGKILL);
  ASSERT_TRUE(ended) << "the study did not end: " << testing::ReadFile(dir / "e.txt");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << testing::ReadFile(dir / "e.txt");

  auto incomplete = Query(db,
                          "SELECT r.error, e.facts FROM runs r JOIN run_execution e ON e.run_id = r.id "
                          "WHERE r.status = 'incomplete'");
  ASSERT_EQ(incomplete.size(), 1u) << testing::ReadFile(dir / "o.txt");
  EXPECT_EQ(incomplete[0][0], "interrupted: preempted by Slurm before the run ended");
  EXPECT_EQ(nlohmann::json::parse(incomplete[0][1])["slurm"]["state"], "PREEMPTED");
  auto finished = Query(db, "SELECT status, COUNT(*) FROM runs WHERE status != 'incomplete' GROUP BY status");
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0][0], "reached");
  EXPECT_EQ(finished[0][1], "1");
  EXPECT_TRUE(fs::exists(dir / "runs" / ".slurm" / "array-0002.json")) << "the preempted run was not submitted again";
}

}  // namespace
}  // namespace evalsuite
