// Real sequential studies of two external entries whose run logs draw TTA from known distributions by seed
// (examples/synthetic_tta_entry.py): the 30% faster entry is declared faster before max_runs, identical entries end
// with "no difference shown", a study killed mid-way resumes to the same decision, and `evalsuite compare` and
// `evalsuite study plan` read the same store.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/support/store_query.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::Query;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

std::string Entry(const std::string& name, double median, double fail, double pause) {
  return "  { name = \"" + name + "\", command = \"/usr/bin/python3 " +
         (testing::SourceDir() / "examples" / "synthetic_tta_entry.py").string() +
         " --seed {seed} --log {log} --median " + std::to_string(median) + " --cov 0.1 --fail " + std::to_string(fail) +
         " --pause " + std::to_string(pause) + "\" },\n";
}

std::string SequentialStudy(const std::string& name, double fast_median, int max_runs, double pause = 0) {
  return "name = \"" + name + "\"\nseed = 11\nthreshold = 0.9\njobs = 2\nentries = [\n" +
         Entry("candidate", fast_median, 0, pause) + Entry("reference", 100, 0.1, pause) +
         "]\ncompare = [[\"candidate\", \"reference\"]]\n[sequential]\nmin_runs = 3\nmax_runs = " +
         std::to_string(max_runs) + "\nalpha = 0.05\nquestion = [\"candidate\", \"reference\"]\n";
}

int CountedRuns(const fs::path& store) {
  return std::stoi(Query(store, "SELECT COUNT(*) FROM runs WHERE status != 'incomplete'")[0][0]);
}

TEST(SequentialStudyCliTest, ThirtyPercentFasterIsDeclaredFasterBeforeMaxRuns) {
  TempDir dir;
  WriteFile(dir / "s.toml", SequentialStudy("speedup", 70, 12));
  const fs::path store = dir / "s.db";
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store.string(), "--out",
                           (dir / "runs").string(), "--progress", "none"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("sequential study: candidate faster: stopped early"), std::string::npos) << run.out;
  EXPECT_LT(CountedRuns(store), 24);

  auto compare =
      RunEvalsuite({"compare", store.string(), "candidate", "reference", "--json", (dir / "c.json").string()});
  ASSERT_EQ(compare.exit_code, 0) << compare.out << compare.err;
  // The sequential decision, from the runs the stopping look had (runs finished after it with 2 jobs are apart).
  EXPECT_NE(compare.out.find("verdict: sequential study, look "), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("candidate reaches the target faster than reference"), std::string::npos) << compare.out;
  const auto json = nlohmann::json::parse(ReadFile(dir / "c.json"));
  EXPECT_EQ(json["result"], "candidate faster");
  EXPECT_EQ(json["runs_a"], json["sequential"]["runs_per_entry"]);
  // Issue 34 item 6: `compare B A` ignored the sequential design; now the same decision, mirrored.
  auto reversed =
      RunEvalsuite({"compare", store.string(), "reference", "candidate", "--json", (dir / "r.json").string()});
  ASSERT_EQ(reversed.exit_code, 0) << reversed.out << reversed.err;
  const auto mirrored = nlohmann::json::parse(ReadFile(dir / "r.json"));
  EXPECT_EQ(mirrored["result"], "candidate faster");
  EXPECT_DOUBLE_EQ(mirrored["critical_z"].get<double>(), json["critical_z"].get<double>());
  EXPECT_DOUBLE_EQ(mirrored["log_rank"]["z"].get<double>(), -json["log_rank"]["z"].get<double>());
  // Issue 36 item 5: `compare seq.db A A` named "A B". (Item 10, a horizon past the runs, is refused by
  // reports::CompareNamedEntries: ComparisonSectionTest.AHorizonPastTheRunsIsRefusedNamingTheLastObservedTime.)
  auto same = RunEvalsuite({"compare", store.string(), "candidate", "candidate"});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("A and B are both 'candidate'"), std::string::npos) << same.err;
  EXPECT_EQ(same.err.find("A B:"), std::string::npos) << same.err;
  EXPECT_LT(json["tta_ratio"]["interval"]["upper"].get<double>(), 1.0);
  EXPECT_GT(json["tta_ratio"]["interval"]["lower"].get<double>(), 0.5);
  EXPECT_GT(json["interval_level"].get<double>(), 0.95);  // repeated confidence interval of the stopping look

  auto report = RunEvalsuite({"report", store.string(), "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const auto model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  EXPECT_EQ(model["compare"]["sequential"]["result"], "candidate faster");
  const std::string markdown = ReadFile(dir / "report" / "report.md");
  EXPECT_NE(markdown.find("Validity:"), std::string::npos);

  auto list = RunEvalsuite({"study", "list", "--store", store.string()});
  EXPECT_NE(list.out.find("answered: candidate faster"), std::string::npos) << list.out;

  // Running it again takes no more runs: the question is answered.
  auto again =
      RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store.string(), "--progress", "none"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("0 now"), std::string::npos) << again.out;
  // ...and says so where the progress goes, instead of "N of M runs to do" followed by nothing (issue 36).
  auto plain =
      RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store.string(), "--progress", "plain"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.err.find("study speedup: finished: its sequential stopping rule answered after "), std::string::npos)
      << plain.err;
  EXPECT_NE(plain.err.find("so no run is left to do"), std::string::npos) << plain.err;
  EXPECT_EQ(plain.err.find("runs to do"), std::string::npos) << plain.err;
}

TEST(SequentialStudyCliTest, IdenticalEntriesEndWithNoDifferenceShown) {
  TempDir dir;
  WriteFile(dir / "s.toml", SequentialStudy("same", 100, 6));
  const fs::path store = dir / "s.db";
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store.string(), "--out",
                           (dir / "runs").string(), "--progress", "none"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("sequential study: no difference shown: stopped at max_runs"), std::string::npos) << run.out;
  EXPECT_EQ(CountedRuns(store), 12);
  auto compare = RunEvalsuite({"compare", store.string(), "candidate", "reference"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find("verdict: sequential study, look 4 at 6 runs per entry: no difference shown"),
            std::string::npos)
      << compare.out;
  EXPECT_NE(compare.out.find("could not be detected"), std::string::npos) << compare.out;

  // Planning from these runs as a pilot: runs for a 10% difference, with the simulation's error and the cost.
  auto plan = RunEvalsuite({"study", "plan", (dir / "s.toml").string(), "--pilot", store.string(), "--simulations",
                            "400", "--json", (dir / "plan.json").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.out << plan.err;
  EXPECT_NE(plan.out.find("candidate vs reference:"), std::string::npos) << plan.out;
  EXPECT_NE(plan.out.find("machine hours"), std::string::npos) << plan.out;
  const auto figures = nlohmann::json::parse(ReadFile(dir / "plan.json"));
  const auto& pair = figures["comparisons"][0];
  if (pair["runs_per_entry"].is_number()) {  // or withheld: a 6-run pilot may be too small for a 10% difference
    EXPECT_GT(pair["runs_per_entry"].get<int>(), 6);
    EXPECT_GT(pair["simulation_se"].get<double>(), 0);
  } else {
    EXPECT_NE(pair["note"].get<std::string>().find("withheld: "), std::string::npos) << pair.dump();
  }
  // Issue 34, item 9: the cost is the runs' wall time as the study measured it (python's start-up and all), not
  // the synthetic logs' own wall_seconds.
  for (const auto& e : figures["entries"]) {
    EXPECT_EQ(e["wall_sources"]["measured"], 6) << e.dump();
    EXPECT_GT(e["mean_wall_seconds"].get<double>(), 0.01) << e.dump();
  }
  // Issue 34: --alpha out of range was an internal error (exit 70) in study plan; it is the usage error compare
  // gives, naming the option.
  for (const char* alpha : {"5", "0", "-0.1", "nan", "inf"}) {
    auto bad = RunEvalsuite({"study", "plan", (dir / "s.toml").string(), "--pilot", store.string(), "--alpha", alpha});
    EXPECT_EQ(bad.exit_code, 2) << alpha << ": " << bad.err;
    EXPECT_NE(bad.err.find("--alpha"), std::string::npos) << bad.err;
    auto refused = RunEvalsuite({"compare", store.string(), "candidate", "reference", "--alpha", alpha});
    EXPECT_EQ(refused.exit_code, 2) << alpha << ": " << refused.err;
  }
}

TEST(SequentialStudyCliTest, KilledSequentialStudyResumesToTheSameDecision) {
  TempDir dir;
  WriteFile(dir / "s.toml", SequentialStudy("killed", 70, 12, 0.05));  // each run about 1 s of wall time
  // Uninterrupted, in its own store.
  auto whole = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", (dir / "whole.db").string(), "--out",
                             (dir / "runs-whole").string(), "--progress", "none"});
  ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
  // Killed after a few runs, then resumed.
  const fs::path store = dir / "killed.db";
  pid_t pid = testing::SpawnEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store.string(), "--out",
                                       (dir / "runs").string(), "--progress", "none"},
                                      dir / "out.txt", dir / "err.txt");
  ASSERT_GT(pid, 0);
  bool killed = false;
  for (int i = 0; i < 600 && !killed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!fs::exists(store)) continue;
    auto rows = Query(store, "SELECT COUNT(*) FROM runs WHERE status != 'incomplete'", /*quiet=*/true);
    if (!rows.empty() && std::stoi(rows[0][0]) >= 3) {
      kill(pid, SIGKILL);
      killed = true;
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(killed) << ReadFile(dir / "err.txt");
  auto resume = RunEvalsuite({"study", "resume", "killed", "--store", store.string(), "--progress", "none"});
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  auto decision = [](const std::string& out) {
    const std::size_t at = out.find("sequential study: ");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  EXPECT_FALSE(decision(whole.out).empty()) << whole.out;
  EXPECT_EQ(decision(resume.out), decision(whole.out)) << resume.out;
}

}  // namespace
}  // namespace evalsuite
