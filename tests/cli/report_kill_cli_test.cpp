// `evalsuite report` killed while it writes (a slow disk simulated with EVALSUITE_TEST_WRITE_PAUSE_MS) leaves
// every report file either as it was or complete, never empty or half-written (they used to be truncated first).
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
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

TEST(ReportKillCliTest, AKillWhileWritingLeavesTheOldReportOrTheNewOne) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml",
            "name = \"r\"\nruns = 2\nthreshold = 0.85\nentries = [ { name = \"a\", command = "
            "\"sh {study_dir}/fake_entry.sh {log} {seed} ok\" } ]\n");
  const std::string store = (dir / "r.db").string();
  ASSERT_EQ(RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--out", (dir / "runs").string(),
                          "--progress", "none"})
                .exit_code,
            0);
  const fs::path out = dir / "report";
  ASSERT_EQ(RunEvalsuite({"report", store, "--out", out.string()}).exit_code, 0);
  const std::string old_json = ReadFile(out / "report.json"), old_md = ReadFile(out / "report.md"),
                    old_html = ReadFile(out / "report.html");
  // A 4 MB section makes the new report.json several MiB: with a pause per MiB the write takes a while.
  // (A known section: an image set without models, its numbers in a key the report does not draw.)
  std::string big = "[{\"image_set\":\"big\",\"models\":[],\"values\":[";
  for (int i = 0; i < 400000; ++i) big += (i ? "," : "") + std::to_string(i * 7);
  big += "]}]";
  WriteFile(dir / "big.json", big);

  int interrupted = 0;
  for (int delay_ms : {900, 1300, 1700, 2100}) {
    testing::ScopedEnv pause("EVALSUITE_TEST_WRITE_PAUSE_MS", "400");
    const pid_t pid = testing::SpawnEvalsuite(
        {"report", store, "--out", out.string(), "--section", "generalization=" + (dir / "big.json").string()},
        dir / "o.txt", dir / "e.txt");
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ++interrupted;
    }
    const std::string json = ReadFile(out / "report.json"), md = ReadFile(out / "report.md"),
                      html = ReadFile(out / "report.html");
    const bool json_new = json != old_json;
    EXPECT_FALSE(nlohmann::json::parse(json, nullptr, false).is_discarded()) << "half-written report.json";
    if (!json_new) {
      EXPECT_EQ(md, old_md) << "report.md changed while report.json is the old one";
      EXPECT_EQ(html, old_html);
    } else {
      EXPECT_NE(md.find("</"), std::string::npos);
      EXPECT_NE(html.find("</html>"), std::string::npos) << "half-written report.html";
    }
  }
  EXPECT_GE(interrupted, 2) << "the kills all came too late to test anything";
}

}  // namespace
}  // namespace evalsuite
