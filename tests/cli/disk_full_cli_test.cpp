// Run folders on a full disk (a 1 MiB tmpfs): the runs that die of it are recorded as died of their environment
// (not as failed training runs), left out of the statistics, and run again by `study resume` once there is room
// (a temporary full disk used to fail runs for good). Needs root to mount; skips with a message otherwise.
#include <sys/mount.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

TEST(DiskFullCliTest, RunsThatDieOfAFullDiskAreNotCountedAndResumeRunsThemAgain) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "fill-mode", "");
  const fs::path runs = dir / "runs";
  fs::create_directories(runs);
  if (mount("tmpfs", runs.c_str(), "tmpfs", 0, "size=1m") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (needs root and mount permission)";
  }
  struct Unmount {
    fs::path path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{runs};
  WriteFile(dir / "s.toml",
            "name = \"full\"\nruns = 2\njobs = 1\nthreshold = 0.85\nentries = [ { name = \"a\", "
            "command = \"sh {study_dir}/fake_entry.sh {log} {seed} fill\" } ]\n");
  const std::string store = (dir / "full.db").string();
  auto run = RunEvalsuite(
      {"study", "run", (dir / "s.toml").string(), "--store", store, "--out", runs.string(), "--progress", "plain"});
  EXPECT_NE(run.err.find("DIED OF ITS ENVIRONMENT"), std::string::npos) << run.out << run.err;
  EXPECT_NE(run.err.find("no space left on device"), std::string::npos) << run.err;

  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  EXPECT_EQ(model["table"][0]["runs"], 0) << "a full disk was counted as the entry's failure";
  EXPECT_EQ(model["verdicts"][0]["result"], "DID NOT RUN");

  // Room again: resume runs both again, and now they count.
  fs::remove(dir / "fill-mode");
  for (const auto& entry : fs::recursive_directory_iterator(runs)) {
    if (entry.path().filename() == "fill.bin") fs::remove(entry.path());
  }
  auto resume = RunEvalsuite({"study", "resume", "full", "--store", store, "--progress", "none"});
  EXPECT_EQ(resume.exit_code, 0) << resume.out << resume.err;
  ASSERT_EQ(RunEvalsuite({"report", store, "--out", (dir / "report").string()}).exit_code, 0);
  model = nlohmann::json::parse(ReadFile(dir / "report" / "report.json"));
  EXPECT_EQ(model["table"][0]["runs"], 2);
  EXPECT_EQ(model["table"][0]["reached"], 2);
}

}  // namespace
}  // namespace evalsuite
