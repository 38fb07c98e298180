// A real study on a real Slurm: the one-node cluster of tests/support/slurm_cluster.h, a study of small built-in
// runs submitted as one job array, its coordinator SIGKILLed mid-way and one running task scancelled, then resumed:
// every planned run is recorded exactly once, with its job id and node, and its accuracy curve is the one the local
// executor gives for the same seed. And tasks that Slurm itself ends, recorded with the state as real Slurm reports
// it (not a fake's): one that outlives its --time, one that a higher-priority job preempts, one that an
// administrator requeues.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

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
  for (const auto& row : Query(db,
                               "SELECT r.entry || '/' || r.run_index, p.epoch || ':' || p.metric FROM runs r "
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

  pid_t coordinator = testing::SpawnEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", slurm_db.string(),
                                               "--out", runs.string(), "--progress", "plain"},
                                              dir / "o1.txt", dir / "e1.txt");
  ASSERT_GT(coordinator, 0);
  // Two tasks running (max_concurrent = 2): kill the coordinator, then scancel a task that has not ended.
  auto started = [&](int index) {
    return fs::exists(runs / "fast" / ("run-00" + std::to_string(index)) / "task-start.json");
  };
  auto ended = [&](int index) {
    return fs::exists(runs / "fast" / ("run-00" + std::to_string(index)) / "task-end.json");
  };
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
  auto finished = Query(slurm_db,
                        "SELECT run_index, COUNT(*) FROM runs WHERE status != 'incomplete' GROUP BY "
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
  for (const auto& row : Query(slurm_db,
                               "SELECT e.facts FROM run_execution e JOIN runs r ON r.id = e.run_id "
                               "WHERE r.status != 'incomplete'")) {
    auto facts = nlohmann::json::parse(row[0]);
    EXPECT_EQ(facts["executor"], "slurm");
    EXPECT_EQ(facts["slurm"]["node"], testing::SlurmTestCluster::kNodeName);
    EXPECT_EQ(facts["slurm"]["state"], "COMPLETED");
    EXPECT_FALSE(facts["slurm"]["job_id"].get<std::string>().empty());
    EXPECT_GT(facts["usage"]["user_seconds"].get<double>(), 0.1);  // a LibTorch training, not a shell
    EXPECT_GT(facts["usage"]["max_rss_kb"].get<long>(), 50000);
    // What the node did to the run while it ran, sampled by the task there (contention_sampler.h's record).
    const nlohmann::json& contention = facts["contention"];
    ASSERT_TRUE(contention.is_object()) << facts.dump();
    EXPECT_GE(contention["cores"].get<int>(), 1) << contention.dump();
    EXPECT_TRUE(contention["other_busy_cores"].is_number()) << contention.dump();
    EXPECT_TRUE(contention["steal_fraction"].is_number()) << contention.dump();
    EXPECT_GT(contention["own_busy_cores"].get<double>(), 0.05) << contention.dump();  // the training's own CPU
    EXPECT_GE(contention["load_average_1m"]["samples"].get<int>(), 1) << contention.dump();
  }
  if (!victim_ended_first) {  // the cancelled try: Slurm's SIGTERM lets the task write what it sampled
    for (const auto& row : Query(slurm_db,
                                 "SELECT e.facts FROM run_execution e JOIN runs r ON r.id = e.run_id "
                                 "WHERE r.status = 'incomplete'")) {
      EXPECT_TRUE(nlohmann::json::parse(row[0])["contention"].is_object()) << row[0];
    }
  }
  // The local executor's curves for the same plan.
  auto local =
      RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--executor", "local", "--store", local_db.string(),
                    "--out", (dir / "local-runs").string(), "--jobs", "2", "--progress", "none"});
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

  auto rows = Query(db,
                    "SELECT r.status, r.error, e.facts, (SELECT COUNT(*) FROM points p WHERE p.run_id = r.id) "
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

// A one-run study of an entry whose first try marks itself and waits (60 s at most) for Slurm to end it; any later
// try ends at once, reached. The coordinator runs in the background until Wait().
class InterruptedOnceStudy {
 public:
  explicit InterruptedOnceStudy(const std::string& name) : db_(dir_ / (name + ".db")), runs_(dir_ / "runs") {
    WriteFile(dir_ / "twice.sh",
              "#!/bin/sh\nlog=$1; seed=$2; here=$3\n"
              "echo '{\"type\":\"header\",\"entry\":\"twice\",\"seeds\":{\"run\":'$seed'}}' > \"$log\"\n"
              "echo '{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"wall_seconds\":2,\"metric\":0.5}' >> "
              "\"$log\"\n"
              "if [ ! -e \"$here/first-try\" ]; then touch \"$here/first-try\"; sleep 60; fi\n"
              "echo '{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":2}' >> \"$log\"\n");
    WriteFile(dir_ / "s.toml",
              "name = \"" + name +
                  "\"\nruns = 1\nseed = 5\nthreshold = 0.4\n"
                  "entries = [ { name = \"twice\", command = \"sh {study_dir}/twice.sh {log} {seed} {study_dir}\" } ]\n"
                  "executor = \"slurm\"\n[slurm]\npoll_seconds = 0.2\ncpus_per_task = 1\n");
    coordinator_ = testing::SpawnEvalsuite({"study", "run", (dir_ / "s.toml").string(), "--store", db_.string(),
                                            "--out", runs_.string(), "--progress", "plain"},
                                           dir_ / "o.txt", dir_ / "e.txt");
  }
  // The first try has started.
  bool FirstTryRunning() {
    return coordinator_ > 0 && WaitFor([&] { return fs::exists(dir_ / "first-try"); }, 60);
  }
  std::string ArrayTask() const {
    return nlohmann::json::parse(testing::ReadFile(runs_ / ".slurm" / "array-0001.json"))["job_id"].get<std::string>() +
           "_0";
  }
  // Waits for the study to end (90 s at most); empty when it ended with exit 0, else what went wrong with what
  // Slurm and the run folders show.
  std::string Wait() {
    int status = 0;
    if (WaitFor([&] { return waitpid(coordinator_, &status, WNOHANG) == coordinator_; }, 90)) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
      return "the study failed: " + testing::ReadFile(dir_ / "e.txt");
    }
    kill(coordinator_, SIGKILL);
    waitpid(coordinator_, &status, 0);
    std::string listing;
    for (const auto& f : fs::recursive_directory_iterator(runs_)) listing += f.path().string() + "\n";
    return "the study did not end in 90 s: " + testing::ReadFile(dir_ / "o.txt") + testing::ReadFile(dir_ / "e.txt") +
           "\nsqueue:\n" + testing::RunCommand({"squeue", "--all"}).out + "\nscontrol:\n" +
           testing::RunCommand({"scontrol", "--oneliner", "show", "job", ArrayTask()}).out + "\nrun folders:\n" +
           listing;
  }
  const fs::path& db() const { return db_; }
  const fs::path& runs() const { return runs_; }
  std::string out() const { return testing::ReadFile(dir_ / "o.txt"); }

 private:
  TempDir dir_;
  fs::path db_, runs_;
  pid_t coordinator_ = -1;
};

// Preemption by a job of a higher-tier partition (PreemptMode=CANCEL): the task's first try is recorded as an
// incomplete attempt with Slurm's reason (state PREEMPTED), the run is submitted again in the same invocation, and
// it is counted once, from its second try.
TEST(SlurmClusterCliTest, PreemptedTaskIsRecordedAsInterruptedAndRunAgainOnce) {
  std::string why;
  auto cluster = testing::SlurmTestCluster::Start(2, &why);
  ASSERT_TRUE(cluster) << "cannot start the one-node Slurm cluster: " << why;
  InterruptedOnceStudy study("preempt");
  ASSERT_TRUE(study.FirstTryRunning()) << study.Wait();

  // Both CPUs for the urgent job: the task must make way.
  auto urgent = testing::RunCommand({"sbatch", "--parsable", "--partition", testing::SlurmTestCluster::kUrgentPartition,
                                     "--cpus-per-task=2", "--output=/dev/null", "--wrap", "sleep 1"});
  ASSERT_EQ(urgent.exit_code, 0) << urgent.err;
  const std::string failure = study.Wait();
  ASSERT_EQ(failure, "");

  auto incomplete = Query(study.db(),
                          "SELECT r.error, e.facts FROM runs r JOIN run_execution e ON e.run_id = r.id "
                          "WHERE r.status = 'incomplete'");
  ASSERT_EQ(incomplete.size(), 1u) << study.out();
  EXPECT_EQ(incomplete[0][0], "interrupted: preempted by Slurm before the run ended");
  EXPECT_EQ(nlohmann::json::parse(incomplete[0][1])["slurm"]["state"], "PREEMPTED");
  auto finished = Query(study.db(), "SELECT status, COUNT(*) FROM runs WHERE status != 'incomplete' GROUP BY status");
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0][0], "reached");
  EXPECT_EQ(finished[0][1], "1");
  EXPECT_TRUE(fs::exists(study.runs() / ".slurm" / "array-0002.json")) << "the preempted run was not submitted again";
}

// A task Slurm requeues (`scontrol requeue`, as an administrator or a node's health check does): Slurm starts the
// same task again, which keeps its cut try aside and runs afresh; the coordinator records the cut try as an
// incomplete attempt and the run once, without submitting it again. Slurm holds a requeued job for two minutes
// (BeginTime), so the test releases it at once as an administrator would (`scontrol update StartTime=now`).
TEST(SlurmClusterCliTest, RequeuedTaskRunsAgainAndIsCountedOnce) {
  std::string why;
  auto cluster = testing::SlurmTestCluster::Start(2, &why);
  ASSERT_TRUE(cluster) << "cannot start the one-node Slurm cluster: " << why;
  InterruptedOnceStudy study("requeue");
  ASSERT_TRUE(study.FirstTryRunning()) << study.Wait();

  const std::string task = study.ArrayTask();
  auto requeued = testing::RunCommand({"scontrol", "requeue", task});
  ASSERT_EQ(requeued.exit_code, 0) << requeued.err;
  // Released once Slurm has put it back in the queue with its hold (an earlier update is overwritten by the hold).
  ASSERT_TRUE(WaitFor(
      [&] {
        return testing::RunCommand({"squeue", "--noheader", "--jobs=" + task, "--format=%T|%r"}).out ==
               "PENDING|BeginTime\n";
      },
      30))
      << study.Wait();
  auto released = testing::RunCommand({"scontrol", "update", "JobId=" + task, "StartTime=now"});
  ASSERT_EQ(released.exit_code, 0) << released.err;
  const std::string failure = study.Wait();
  ASSERT_EQ(failure, "");

  auto rows = Query(study.db(), "SELECT status, error, run_dir FROM runs ORDER BY id");
  ASSERT_EQ(rows.size(), 2u) << study.out();
  EXPECT_EQ(rows[0][0], "incomplete");
  EXPECT_NE(rows[0][1].find("requeued by Slurm"), std::string::npos) << rows[0][1];
  EXPECT_NE(rows[0][2].find("run-000.attempt-1"), std::string::npos) << rows[0][2];
  EXPECT_EQ(rows[1][0], "reached") << rows[1][1];
  EXPECT_EQ(fs::path(rows[1][2]).filename(), "run-000") << "the finished run is where a user looks first";
  EXPECT_FALSE(fs::exists(study.runs() / ".slurm" / "array-0002.json"))
      << "Slurm ran it again: evalsuite must not submit it";
}

}  // namespace
}  // namespace evalsuite
