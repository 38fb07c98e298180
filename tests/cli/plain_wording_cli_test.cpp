// Issue 50 items 9 and 10 as a user meets them on the command line: a run store given to `study run` or `import`
// is said to be one (not a TOML or UTF-8 error), `import --quiet` leaves out the long `note:` lines (one line says
// how many), and `study show` prints TTAs of 0.029 s and 0.049 s with three significant digits, not both as "0.0 s".
#include <gtest/gtest.h>

#include <string>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

// Entry `name`'s one run, reaching 0.9 at `seconds`.
void WriteRun(const fs::path& file, const std::string& name, const std::string& seconds) {
  WriteFile(file, "{\"type\":\"header\",\"entry\":\"" + name + "\",\"threshold\":0.9}\n" +
                      "{\"type\":\"eval\",\"epoch\":0.2275,\"train_seconds\":" + seconds + ",\"metric\":0.95}\n" +
                      "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":" + seconds + "}\n");
}

TEST(PlainWordingCliTest, ARunStoreGivenAsAPlanOrALogIsNamed) {
  TempDir dir;
  WriteRun(dir / "run.jsonl", "e", "10");
  const fs::path store = dir / "my.db";
  ASSERT_EQ(RunEvalsuite({"import", (dir / "run.jsonl").string(), "--store", store.string(), "--quiet"}).exit_code, 0);

  const auto run = RunEvalsuite({"study", "run", store.string(), "--store", (dir / "other.db").string()});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(store.string() + ": this is a run store"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("not a study file"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("parse"), std::string::npos) << run.err;  // was a TOML parse error
  EXPECT_FALSE(fs::exists(dir / "other.db"));

  const auto imported = RunEvalsuite({"import", store.string(), "--store", (dir / "other.db").string()});
  EXPECT_NE(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.err.find(store.string() + ": this is a run store"), std::string::npos) << imported.err;
  EXPECT_EQ(imported.err.find("UTF-8"), std::string::npos) << imported.err;
  EXPECT_EQ(imported.err.find("not an MLPerf result log"), std::string::npos) << imported.err;
}

// Keras CSVLogger files give notes (the metric chosen, TTA in epochs); --quiet leaves them out and says so.
TEST(PlainWordingCliTest, QuietImportLeavesOutTheNotes) {
  TempDir dir;
  for (int seed = 0; seed < 2; ++seed) {
    WriteFile(dir / "logs" / "fast" / ("seed" + std::to_string(seed) + ".csv"),
              "epoch,accuracy,loss,val_accuracy,val_loss\n0,0.9,0.3,0.5,0.4\n1,0.9,0.3,0.85,0.4\n");
  }
  const std::vector<std::string> args = {
      "import", (dir / "logs").string(), "--store", (dir / "s.db").string(), "--threshold", "0.8"};
  const auto loud = RunEvalsuite(args);
  ASSERT_EQ(loud.exit_code, 0) << loud.err;
  ASSERT_NE(loud.err.find("note: "), std::string::npos) << loud.err;  // what --quiet is to leave out
  std::vector<std::string> quiet_args = args;
  quiet_args[3] = (dir / "q.db").string();
  quiet_args.push_back("--quiet");
  const auto quiet = RunEvalsuite(quiet_args);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("note: "), std::string::npos) << quiet.err;
  EXPECT_NE(quiet.err.find("note(s) on how the logs were read left out (--quiet)"), std::string::npos) << quiet.err;
  EXPECT_EQ(quiet.out, "");
}

TEST(PlainWordingCliTest, StudyShowKeepsThreeSignificantDigits) {
  TempDir dir;
  WriteRun(dir / "a.jsonl", "a", "0.029");
  WriteRun(dir / "b.jsonl", "b", "0.049");
  const std::string store = (dir / "s.db").string();
  ASSERT_EQ(RunEvalsuite({"import", (dir / "a.jsonl").string(), (dir / "b.jsonl").string(), "--store", store, "--study",
                          "tiny", "--quiet"})
                .exit_code,
            0);
  const auto show = RunEvalsuite({"study", "show", "tiny", "--store", store});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("0.0290 s"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("0.0490 s"), std::string::npos) << show.out;
  EXPECT_EQ(show.out.find("0.0 s"), std::string::npos) << show.out;
}

}  // namespace
}  // namespace evalsuite
