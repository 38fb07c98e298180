// `evalsuite study` and `evalsuite report` as a user runs them, on fake external entries (fast shell scripts):
// run, list, show and report end to end; a bad study file names its line and key; and a REAL study process
// killed with SIGKILL mid-way loses no finished run, leaves the store readable, and `study resume` runs only
// the missing runs while keeping the interrupted one's points as an incomplete attempt.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "tests/study/fake_entries.h"
#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

using testing::Query;

std::string FakeStudy(const std::string& name, int runs, const std::string& mode_args) {
  return "name = \"" + name + "\"\nruns = " + std::to_string(runs) + "\nseed = 5\nthreshold = 0.85\njobs = 2\n" +
         "entries = [\n"
         "  { name = \"alpha\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} " +
         mode_args +
         "\" },\n"
         "  { name = \"beta\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} " +
         mode_args +
         "\" },\n"
         "  { name = \"gamma\", command = \"sh {study_dir}/fake_entry.sh {log} {seed} crash\" },\n"
         "]\n";
}

TEST(StudyCliTest, RunListShowAndReportEndToEnd) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml", FakeStudy("e2e", 3, "ok"));
  const std::string store = (dir / "e2e.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--progress", "plain"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("9 of 9 runs recorded"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("alpha"), std::string::npos);
  EXPECT_NE(run.err.find("[9/9]"), std::string::npos) << run.err;  // plain progress lines, not a terminal

  auto list = RunEvalsuite({"study", "list", "--store", store});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("e2e"), std::string::npos);
  EXPECT_NE(list.out.find("9/9"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("complete"), std::string::npos);

  auto show = RunEvalsuite({"study", "show", "e2e", "--store", store});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("CoV"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("gamma"), std::string::npos);

  // The plan and the environment are stored with the results.
  auto plans = Query(store, "SELECT plan, environment FROM studies WHERE name = 'e2e'");
  ASSERT_EQ(plans.size(), 1u);
  auto plan = nlohmann::json::parse(plans[0][0]);
  EXPECT_EQ(plan["runs"], 3);
  EXPECT_EQ(plan["schedule"].size(), 9u);
  EXPECT_TRUE(nlohmann::json::parse(plans[0][1]).contains("host"));
  EXPECT_EQ(Query(store, "SELECT COUNT(*) FROM seeds")[0][0], "18");  // "run" and the entry's own "init"

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.out << report.err;
  auto model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  ASSERT_EQ(model["entries"].size(), 3u);
  std::map<std::string, nlohmann::json> entries;
  for (const auto& e : model["entries"]) entries[e["name"]] = e;
  EXPECT_EQ(entries["alpha"]["runs"].size(), 3u);
  EXPECT_EQ(entries["alpha"]["runs"][0]["status"], "reached");
  EXPECT_EQ(entries["gamma"]["runs"][0]["status"], "failed");
  EXPECT_NE(entries["gamma"]["runs"][0]["error"].get<std::string>().find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(model["plan"]["name"], "e2e");
  EXPECT_TRUE(fs::exists(dir / "report" / "report.md"));
  EXPECT_TRUE(fs::exists(dir / "report" / "report.html"));

  // Running the same study again continues it (nothing left to do); more runs continue it too, keeping the 9 runs
  // (issue 50 item 7); a plan that makes runs differently under the name is refused.
  auto again = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--progress", "none"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  auto more = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--runs", "4"});
  EXPECT_NE(more.out.find("12 of 12 runs recorded"), std::string::npos) << more.out << more.err;
  EXPECT_NE(more.out.find("(3 now"), std::string::npos) << more.out;
  EXPECT_NE(more.out.find("continues under its changed plan (runs 3 -> 4)"), std::string::npos) << more.out;
  auto other = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--seed", "9"});
  EXPECT_EQ(other.exit_code, 2) << other.err;
  EXPECT_NE(other.err.find("different plan"), std::string::npos) << other.err;
  EXPECT_NE(other.err.find("seed 5 -> 9"), std::string::npos) << other.err;
}

TEST(StudyCliTest, BadStudyFileNamesLineAndKey) {
  TempDir dir;
  WriteFile(dir / "bad.toml", "entries = [\"baseline\"]\nruns = 3\njbos = 2\n");
  auto result = RunEvalsuite({"study", "run", (dir / "bad.toml").string(), "--store", (dir / "s.db").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("bad.toml:3"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("jbos"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(dir / "s.db"));  // nothing written for a plan that does not validate

  auto missing = RunEvalsuite({"study", "show", "--store", (dir / "none.db").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("none.db"), std::string::npos) << missing.err;
}

// Starts the binary in the background (stdout/stderr to files); returns its pid.
pid_t Spawn(const std::vector<std::string>& args, const fs::path& out, const fs::path& err) {
  return testing::SpawnEvalsuite(args, out, err);
}

// A run folder whose log has begun (an evaluation, no end record, at most two evaluations so far: the run has
// a good while to go) and which the store does not have yet.
bool SomeRunIsMidway(const fs::path& runs_dir, const std::set<std::string>& stored_dirs) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(runs_dir, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) return false;
    if (it->path().filename() != "log.jsonl") continue;
    if (stored_dirs.count(it->path().parent_path().string())) continue;
    std::string log = ReadFile(it->path());
    std::size_t evals = 0;
    for (std::size_t p = log.find("\"eval\""); p != std::string::npos; p = log.find("\"eval\"", p + 1)) ++evals;
    if (evals >= 1 && evals <= 2 && log.find("\"end\"") == std::string::npos) return true;
  }
  return false;
}

// Pids of running processes whose command line contains `marker`.
std::vector<pid_t> ProcessesWith(const std::string& marker) {
  std::vector<pid_t> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = ReadFile(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) found.push_back(static_cast<pid_t>(std::stoi(name)));
  }
  return found;
}

TEST(StudyCliTest, SigkillOfTheStudyEndsEveryProcessOfAPipelineEntry) {
  TempDir dir;
  // A pipeline: the shell, sleep and cat are three processes; only the shell is the study's direct child.
  const std::string marker = "86123." + std::to_string(getpid());
  WriteFile(dir / "p.toml",
            "name = \"pipes\"\nruns = 1\nthreshold = 0.5\nentries = [\n"
            "  { name = \"pipeline\", command = \"sleep " +
                marker + " | cat > {log}\" },\n]\n");
  pid_t pid = Spawn({"study", "run", (dir / "p.toml").string(), "--store", (dir / "p.db").string(), "--out",
                     (dir / "runs").string(), "--progress", "plain"},
                    dir / "out.txt", dir / "err.txt");
  ASSERT_GT(pid, 0);
  bool started = false;
  for (int i = 0; i < 400 && !started; ++i) {  // at most 20 s
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    started = !ProcessesWith("sleep " + marker).empty();
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(started) << ReadFile(dir / "err.txt");

  std::vector<pid_t> left = ProcessesWith(marker);
  for (int i = 0; i < 100 && !left.empty(); ++i) {  // the group is killed asynchronously: give it 5 s
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    left = ProcessesWith(marker);
  }
  EXPECT_TRUE(left.empty()) << left.size() << " process(es) of the killed study's run still running";
  for (pid_t orphan : left) kill(orphan, SIGKILL);
}

TEST(StudyCliTest, SigkillMidStudyLosesNoFinishedRunAndResumeRunsOnlyTheMissingOnes) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  // alpha, beta: 4 evaluations 0.2 s apart; gamma crashes at once. 3 x 3 = 9 runs, 2 at a time.
  WriteFile(dir / "k.toml", FakeStudy("killme", 3, "slow 4 0.2"));
  const fs::path store = dir / "k.db", runs = dir / "runs";
  pid_t pid = Spawn({"study", "run", (dir / "k.toml").string(), "--store", store.string(), "--out", runs.string(),
                     "--progress", "plain"},
                    dir / "out.txt", dir / "err.txt");
  ASSERT_GT(pid, 0);
  const testing::ReapedAtScopeEnd reaped(pid);  // when no moment to kill it comes and the assertion below returns

  bool killed = false;
  for (int i = 0; i < 1200 && !killed; ++i) {  // at most a minute
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) break;  // ended on its own: the test failed to catch it mid-way
    if (!fs::exists(store)) continue;
    auto finished = Query(store, "SELECT run_dir FROM runs WHERE status != 'incomplete'", /*quiet=*/true);
    std::set<std::string> stored_dirs;
    for (const auto& row : finished) stored_dirs.insert(row[0]);
    if (finished.size() >= 2 && SomeRunIsMidway(runs, stored_dirs)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    }
  }
  ASSERT_TRUE(killed) << ReadFile(dir / "err.txt");

  // The store is readable and intact, with every run that finished before the kill.
  EXPECT_EQ(Query(store, "PRAGMA integrity_check")[0][0], "ok");
  auto before = Query(store, "SELECT id, entry, run_index FROM runs WHERE status != 'incomplete'");
  ASSERT_GE(before.size(), 2u);
  ASSERT_LT(before.size(), 9u);
  auto show = RunEvalsuite({"study", "show", "--store", store.string()});
  EXPECT_EQ(show.exit_code, 0) << show.err;

  auto resume = RunEvalsuite({"study", "resume", "--store", store.string(), "--progress", "plain"});
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  EXPECT_NE(resume.out.find("9 of 9 runs recorded"), std::string::npos) << resume.out;
  EXPECT_NE(resume.out.find("interrupted attempt"), std::string::npos) << resume.out;

  // Every planned run finished exactly once; the runs from before the kill are the same rows; resume ran only
  // the missing ones.
  auto after = Query(store, "SELECT id, entry, run_index FROM runs WHERE status != 'incomplete'");
  EXPECT_EQ(after.size(), 9u);
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& row : after) EXPECT_TRUE(keys.insert({row[1], row[2]}).second) << row[1] << " " << row[2];
  std::set<std::vector<std::string>> after_rows(after.begin(), after.end());
  for (const auto& row : before) EXPECT_TRUE(after_rows.count(row)) << "lost run " << row[0];
  EXPECT_EQ(resume.err.find("start " + before[0][1] + " #" + before[0][2] + " "), std::string::npos)
      << "resume reran a finished run";

  // The interrupted run's points are kept, marked incomplete.
  auto incomplete = Query(store,
                          "SELECT r.id, COUNT(p.seq) FROM runs r LEFT JOIN points p ON p.run_id = r.id "
                          "WHERE r.status = 'incomplete' GROUP BY r.id");
  ASSERT_GE(incomplete.size(), 1u);
  int with_points = 0;
  for (const auto& row : incomplete) with_points += std::stoi(row[1]) > 0;
  EXPECT_GE(with_points, 1);

  // One folder rule for every executor: each finished run is in run-NNN, where a user looks first, with its whole
  // log (a crash's partial one); each try the kill cut is in run-NNN.attempt-K, and its record names that folder.
  // A try the kill cut before its first line has a folder and no log; one with recorded points has its log.
  for (const auto& row : Query(store,
                               "SELECT r.status, r.run_dir, COUNT(p.seq) FROM runs r "
                               "LEFT JOIN points p ON p.run_id = r.id GROUP BY r.id")) {
    const fs::path folder(row[1]);
    if (row[0] == "incomplete") {
      EXPECT_NE(folder.filename().string().find(".attempt-"), std::string::npos) << row[1];
      EXPECT_TRUE(fs::is_directory(folder)) << row[1];
      if (std::stoi(row[2]) > 0) EXPECT_TRUE(fs::exists(folder / "log.jsonl")) << row[1];
    } else {
      EXPECT_EQ(folder.filename().string().find(".attempt-"), std::string::npos) << row[1];
      if (row[0] != "failed") {  // gamma crashes before its end record
        EXPECT_NE(ReadFile(folder / "log.jsonl").find("\"type\":\"end\""), std::string::npos) << row[1];
      }
    }
  }

  // The report shows the incomplete attempt, out of the statistics.
  auto report = RunEvalsuite({"report", store.string(), "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  int shown_incomplete = 0;
  for (const auto& e : model["entries"]) {
    for (const auto& r : e["runs"]) {
      if (r["status"] == "incomplete") {
        ++shown_incomplete;
        EXPECT_EQ(r["counted"], false);
      }
    }
  }
  EXPECT_EQ(shown_incomplete, static_cast<int>(incomplete.size()));
}

}  // namespace
}  // namespace evalsuite

namespace evalsuite {
namespace {

bool PythonHasTorch() {
  auto probe = testing::RunCommand({"/usr/bin/python3", "-c", "import torch, numpy"});
  return probe.exit_code == 0;
}

// examples/pytorch_entry.py as an external entry: one run on a tiny subset, recorded with its points and
// its own seeds.
TEST(StudyCliTest, PythonPyTorchScriptRunsAsAnEntry) {
  if (!PythonHasTorch()) GTEST_SKIP() << "/usr/bin/python3 has no torch";
  if (!fs::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir dir;
  const std::string script = (testing::SourceDir() / "examples" / "pytorch_entry.py").string();
  WriteFile(dir / "py.toml",
            "name = \"py\"\nruns = 1\nthreshold = 0.3\nepochs = 1\ntrain_subset = 256\n"
            "[[entries]]\nname = \"pytorch-python\"\n"
            "command = \"/usr/bin/python3 " +
                script +
                " --seed {seed} --threads {threads} --epochs {epochs} --target {threshold}"
                " --train-subset {train_subset} --log {log}\"\ntimeout_seconds = 600\n");
  const std::string store = (dir / "py.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "py.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--threads", "1", "--progress", "plain"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  auto rows = Query(store, "SELECT status, exit_status, stderr_tail FROM runs");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0][0], "failed") << rows[0][2];
  EXPECT_EQ(rows[0][1], "0");
  EXPECT_EQ(Query(store, "SELECT COUNT(*) FROM points")[0][0], "1");
  auto seeds = Query(store, "SELECT name FROM seeds ORDER BY name");
  ASSERT_EQ(seeds.size(), 3u);  // run, plus the script's own init and data_order seeds
  EXPECT_EQ(seeds[0][0], "data_order");
}

// One tiny real run of a built-in entry through `evalsuite train` as the study's child process.
TEST(StudyCliTest, BuiltinEntrySmokeRun) {
  if (!fs::exists("/usr/share/datasets/fashion-mnist")) GTEST_SKIP() << "no Fashion-MNIST";
  TempDir dir;
  WriteFile(dir / "b.toml",
            "name = \"smoke\"\nruns = 1\nepochs = 1\ntrain_subset = 256\nthreshold = 0.2\n"
            "keep_models = true\nentries = [\"fast\"]\n");
  const std::string store = (dir / "b.db").string();
  auto run = RunEvalsuite({"study", "run", (dir / "b.toml").string(), "--store", store, "--out",
                           (dir / "runs").string(), "--threads", "1", "--progress", "plain"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  auto rows = Query(store, "SELECT status, exit_status, stderr_tail, header FROM runs");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0][0], "failed") << rows[0][2];  // 256 images, one epoch: reaching is not the point
  EXPECT_EQ(rows[0][1], "0");
  EXPECT_EQ(nlohmann::json::parse(rows[0][3])["entry"], "fast");
  EXPECT_EQ(Query(store, "SELECT COUNT(*) FROM points")[0][0], "1");
  EXPECT_TRUE(fs::exists(dir / "runs" / "fast" / "run-000" / "model"));  // keep_models = --model-dir
}

}  // namespace
}  // namespace evalsuite
