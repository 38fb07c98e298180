// The labeling page in a real browser: Debian's headless /usr/bin/chromium, driven by playwright-core
// (tests/browser/label_page.mjs), labels items with the keyboard, undoes one, clicks a button, moves with the
// arrows and saves a screenshot; this test then reads the SQLite store for exactly those events. A missing
// browser or node_modules fails the test with what to run: it never skips.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::RunCommand;
using evalsuite::testing::SourceDir;
using evalsuite::testing::TempDir;

struct Row {
  std::string item, labeler, action, label;
  int64_t undoes = 0;
  double seconds = 0;
};

// Straight from SQLite, not through LabelStore: the test checks what is on disk.
std::vector<Row> ReadEvents(const fs::path& file) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "SELECT item, labeler, action, label, coalesce(undoes, 0), seconds FROM events "
                               "ORDER BY seq",
                               -1, &stmt, nullptr),
            SQLITE_OK);
  std::vector<Row> rows;
  auto text = [stmt](int column) {
    return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, column)));
  };
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    rows.push_back(
        Row{text(0), text(1), text(2), text(3), sqlite3_column_int64(stmt, 4), sqlite3_column_double(stmt, 5)});
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

// Where the screenshot goes: $EVALSUITE_SCREENSHOT_DIR, else the test's working folder (the build tree).
fs::path ScreenshotPath() {
  const char* dir = std::getenv("EVALSUITE_SCREENSHOT_DIR");
  return fs::absolute(dir ? fs::path(dir) : fs::current_path()) / "label_page.png";
}

TEST(BrowserTest, LabelsWithTheKeyboardUndoesAndTheStoreHasTheEvents) {
  const fs::path script = SourceDir() / "tests" / "browser" / "label_page.mjs";
  const fs::path modules = SourceDir() / "tests" / "browser" / "node_modules" / "playwright-core";
  ASSERT_TRUE(fs::exists("/usr/bin/chromium"))
      << "/usr/bin/chromium is missing: run scripts/setup.sh (it installs Debian's chromium)";
  ASSERT_EQ(RunCommand({"node", "--version"}).exit_code, 0)
      << "node is missing: run scripts/setup.sh (it installs Debian's nodejs)";
  ASSERT_TRUE(fs::exists(modules)) << modules << " is missing: run scripts/setup.sh (it runs npm ci in tests/browser)";

  TempDir dir;
  const auto folder = testing::MakeCandidateFolder(dir / "candidates");
  testing::MakeExamplesFolder(dir / "examples", 4);
  const fs::path store_file = dir / "candidates" / "labels.sqlite";
  LabelStore store(store_file);
  store.AppendLabel("n01440764/photo1", "someone-else", Label::kIncorrect, 3);  // must not affect carol's queue
  ServerOptions options = testing::RunningServer::DefaultOptions();
  options.examples_dir = dir / "examples";
  testing::RunningServer server(folder, store, options);

  const fs::path screenshot = ScreenshotPath();
  fs::remove(screenshot);
  const std::string url = server.base_url() + "/?labeler=carol";
  const auto run = RunCommand({"node", script.string(), url, screenshot.string()});
  ASSERT_EQ(run.exit_code, 0) << "label_page.mjs failed (exit " << run.exit_code << ")\nstdout: " << run.out
                              << "\nstderr: " << run.err;
  const nlohmann::json report = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << run.out;
  EXPECT_TRUE(report["requests_outside"].empty()) << report.dump(1);
  EXPECT_TRUE(report["console_errors"].empty()) << report.dump(1);
  EXPECT_TRUE(fs::exists(screenshot));
  EXPECT_GT(fs::file_size(screenshot), 10000u);
  std::cout << "screenshot: " << screenshot.string() << "\n";

  // Class by class, best rank first: tench 1, 2, 3, then springer 1.
  const auto& items = report["items"];
  EXPECT_EQ(items["first"], "n01440764/photo1");
  EXPECT_EQ(items["second"], "n01440764/photo2");
  EXPECT_EQ(items["third"], "n01440764/photo3");
  EXPECT_EQ(items["fourth"], "n02102040/photo1");
  EXPECT_EQ(report["final"]["item"], "n02102040/photo2");
  EXPECT_EQ(report["final"]["overall"], "4 / 10");
  EXPECT_EQ(report["final"]["inClass"], "1 / 4");
  EXPECT_EQ(report["final"]["className"], "English springer");

  const std::vector<Row> rows = ReadEvents(store_file);
  ASSERT_EQ(rows.size(), 7u);
  const std::vector<std::tuple<std::string, std::string, std::string>> expected = {
      {"n01440764/photo1", "label", "correct"},    // y
      {"n01440764/photo2", "label", "incorrect"},  // n
      {"n01440764/photo3", "label", "correct"},    // y
      {"n01440764/photo3", "undo", "correct"},     // u: retracts the y above
      {"n01440764/photo3", "label", "unsure"},     // s
      {"n02102040/photo1", "label", "incorrect"},  // the Incorrect button
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Row& row = rows[i + 1];
    SCOPED_TRACE("event " + std::to_string(i + 1));
    EXPECT_EQ(row.labeler, "carol");
    EXPECT_EQ(row.item, std::get<0>(expected[i]));
    EXPECT_EQ(row.action, std::get<1>(expected[i]));
    EXPECT_EQ(row.label, std::get<2>(expected[i]));
    EXPECT_GE(row.seconds, 0.0);
  }
  EXPECT_EQ(rows[4].undoes, 4) << "the undo names the event it retracts (seq 4: carol's third decision)";
  const auto decisions = CurrentDecisions(store.EventsOf("carol"));
  EXPECT_EQ(decisions.size(), 4u);
  EXPECT_EQ(decisions.at({"n01440764/photo3", "carol"}).label, Label::kUnsure);
}

}  // namespace
}  // namespace evalsuite::labeling
