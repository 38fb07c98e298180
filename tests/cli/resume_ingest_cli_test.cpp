// A study killed between a run's end (its log has the end record) and the run's commit to the store: resume
// records that run from its folder instead of running it again (4 of 27 killed attempts used to be rerun).
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

TEST(ResumeIngestCliTest, ARunThatEndedButWasNotRecordedIsIngestedNotRerun) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml",
            "name = \"k\"\nruns = 1\nseed = 2\nthreshold = 0.85\nentries = [ { name = \"a\", command = "
            "\"sh {study_dir}/fake_entry.sh {log} {seed} ok\" } ]\n");
  const std::string store = (dir / "k.db").string();
  const fs::path log = dir / "runs" / "a" / "run-000" / "log.jsonl";
  pid_t pid;
  {
    testing::ScopedEnv hold("EVALSUITE_TEST_PAUSE_BEFORE_COMMIT_MS", "30000");
    pid = testing::SpawnEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out",
                                   (dir / "runs").string(), "--progress", "plain"},
                                  dir / "o.txt", dir / "e.txt");
  }
  ASSERT_GT(pid, 0);
  const testing::ReapedAtScopeEnd reaped(pid);  // when the run never ends and the assertion below returns
  bool ended = false;
  for (int i = 0; i < 400 && !ended; ++i) {  // at most 20 s for the run to write its end record
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ended = ReadFile(log).find("\"type\":\"end\"") != std::string::npos;
  }
  ASSERT_TRUE(ended) << ReadFile(dir / "e.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the study sees the exit and holds the commit
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);

  auto resume = RunEvalsuite({"study", "resume", "k", "--store", store, "--progress", "plain"});
  ASSERT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  EXPECT_NE(resume.out.find("1 finished before the last stop and recorded now"), std::string::npos) << resume.out;
  EXPECT_FALSE(fs::exists(dir / "runs" / "a" / "run-000.attempt-1")) << "the run was run again";
  auto show = RunEvalsuite({"study", "show", "k", "--store", store});
  EXPECT_NE(show.out.find("1/1"), std::string::npos) << show.out;
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0);
  const std::string json = ReadFile(dir / "report" / "report.json");
  EXPECT_NE(json.find("\"status\": \"reached\""), std::string::npos);
  EXPECT_EQ(json.find("\"status\": \"incomplete\""), std::string::npos);
}

}  // namespace
}  // namespace evalsuite
