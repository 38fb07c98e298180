// The labeling page in a real browser: Debian's headless /usr/bin/chromium, driven by playwright-core
// (tests/browser/label_page.mjs), labels items with the keyboard, undoes one, clicks a button, moves with the
// arrows and saves a screenshot; this test then reads the SQLite store for exactly those events. A missing
// browser or node_modules fails the test with what to run: it never skips.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "labeling/holdout_freeze.h"
#include "labeling/second_pass.h"
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
  std::string image_sha256, displayed_at, time;
};

// Straight from SQLite, not through LabelStore: the test checks what is on disk.
std::vector<Row> ReadEvents(const fs::path& file) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(
                db,
                "SELECT item, labeler, action, label, coalesce(undoes, 0), seconds, image_sha256, displayed_at, "
                "time FROM events "
                "ORDER BY seq",
                -1, &stmt, nullptr),
            SQLITE_OK);
  std::vector<Row> rows;
  auto text = [stmt](int column) {
    return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, column)));
  };
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    rows.push_back(Row{text(0), text(1), text(2), text(3), sqlite3_column_int64(stmt, 4),
                       sqlite3_column_double(stmt, 5), text(6), text(7), text(8)});
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

// What the browser needs, or the reason it cannot run (the test fails with it: it never skips).
std::string BrowserMissing() {
  const fs::path modules = SourceDir() / "tests" / "browser" / "node_modules" / "playwright-core";
  if (!fs::exists("/usr/bin/chromium")) {
    return "/usr/bin/chromium is missing: run scripts/setup.sh (it installs Debian's chromium)";
  }
  if (RunCommand({"node", "--version"}).exit_code != 0) {
    return "node is missing: run scripts/setup.sh (it installs Debian's nodejs)";
  }
  if (!fs::exists(modules))
    return modules.string() + " is missing: run scripts/setup.sh (it runs npm ci in tests/browser)";
  return "";
}

// Where the screenshot goes: $EVALSUITE_SCREENSHOT_DIR, else the test's working folder (the build tree).
fs::path ScreenshotPath() {
  const char* dir = std::getenv("EVALSUITE_SCREENSHOT_DIR");
  return fs::absolute(dir ? fs::path(dir) : fs::current_path()) / "label_page.png";
}

TEST(BrowserTest, LabelsWithTheKeyboardUndoesAndTheStoreHasTheEvents) {
  const fs::path script = SourceDir() / "tests" / "browser" / "label_page.mjs";
  const std::string missing = BrowserMissing();
  ASSERT_TRUE(missing.empty()) << missing;

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

  // Class by class, best rank first: tench 1, 2, 3, then springer 1, 2, 3 (skipped), the control.
  const auto& items = report["items"];
  EXPECT_EQ(items["first"], "n01440764/photo1");
  EXPECT_EQ(items["second"], "n01440764/photo2");
  EXPECT_EQ(items["third"], "n01440764/photo3");
  EXPECT_EQ(items["fourth"], "n02102040/photo1");
  EXPECT_EQ(items["fifth"], "n02102040/photo2");
  EXPECT_EQ(report["skipped"], "n02102040/photo3");
  EXPECT_EQ(report["final"]["item"], "n02102040/control") << "skip moved on without storing anything";
  EXPECT_EQ(report["final"]["overall"], "5 / 10");
  EXPECT_EQ(report["final"]["inClass"], "2 / 4");
  EXPECT_EQ(report["final"]["className"], "English springer");
  for (const char* id : {"yes", "no", "unsure", "skip", "undo", "prev", "next", "view", "help-button"}) {
    EXPECT_TRUE(report["shortcuts"][id].is_string() && !report["shortcuts"][id].get<std::string>().empty())
        << "aria-keyshortcuts on #" << id << ": " << report["shortcuts"].dump();
  }
  EXPECT_EQ(report["shortcuts"]["yes"], "Y");
  EXPECT_LE(report["small"]["scrollWidth"].get<int>(), 1024) << report["small"].dump();
  EXPECT_TRUE(report["small"]["cut"].empty()) << report["small"].dump();

  std::vector<std::tuple<std::string, std::string, std::string>> expected = {
      {"n01440764/photo1", "label", "correct"},    // y
      {"n01440764/photo2", "label", "incorrect"},  // n
      {"n01440764/photo3", "label", "correct"},    // y
      {"n01440764/photo3", "undo", "correct"},     // u: retracts the y above
      {"n01440764/photo3", "label", "unsure"},     // d
      {"n02102040/photo1", "label", "incorrect"},  // the Incorrect button
      {"n02102040/photo1", "label", "correct"},    // y in review: stayed on the item
      {"n02102040/photo2", "label", "correct"},    // y y: one decision, the second press ignored
  };
  // The grid page: the first cell's tick flipped, every cell whose label changes is one decision.
  ASSERT_EQ(report["grid"]["cells"], 4) << report["grid"].dump();
  for (const auto& decision : report["grid"]["decisions"]) {
    expected.emplace_back(decision["id"].get<std::string>(), "label", decision["label"].get<std::string>());
  }
  EXPECT_EQ(report["grid"]["decisions"].size(), 3u) << report["grid"].dump();
  const std::vector<Row> rows = ReadEvents(store_file);
  ASSERT_EQ(rows.size(), expected.size() + 1);
  std::map<std::string, std::string> sha_of;
  for (const auto& item : folder.manifest.items) sha_of[item.id] = item.sha256;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Row& row = rows[i + 1];
    SCOPED_TRACE("event " + std::to_string(i + 1));
    EXPECT_EQ(row.labeler, "carol");
    EXPECT_EQ(row.item, std::get<0>(expected[i]));
    EXPECT_EQ(row.action, std::get<1>(expected[i]));
    EXPECT_EQ(row.label, std::get<2>(expected[i]));
    EXPECT_GE(row.seconds, 0.0);
    if (row.action == "label") {
      EXPECT_EQ(row.image_sha256, sha_of[row.item]) << "the hash of the image that was shown";
      ASSERT_EQ(row.displayed_at.size(), 24u) << "display time: " << row.displayed_at;
      EXPECT_LE(row.displayed_at, row.time) << "displayed before decided";
    }
  }
  EXPECT_EQ(rows[4].undoes, 4) << "the undo names the event it retracts (seq 4: carol's third decision)";
  const auto decisions = CurrentDecisions(store.EventsOf("carol"));
  EXPECT_EQ(decisions.at({"n01440764/photo3", "carol"}).label, Label::kUnsure);
  EXPECT_EQ(decisions.count({"n02102040/photo3", "carol"}), 1u) << "labeled in the grid after being skipped";
  std::cout << "[ figures  ] grid view: " << report["grid"]["decisions"].size() << " decisions saved in "
            << report["grid"]["millis"] << " ms\n";
}

// Pass 2 in the browser: ann judged each class's photo1 in pass 1, ben every photo. With the frozen holdout (all
// nine photos) served as label serve --pass 2 serves it, ann's page offers exactly the six photos she did not
// judge, each once, and her decisions go to the pass-2 store only; ben's page offers nothing.
TEST(BrowserTest, PassTwoPageOffersOnlyImagesTheLabelerDidNotJudge) {
  const std::string missing = BrowserMissing();
  ASSERT_TRUE(missing.empty()) << missing;
  TempDir dir;
  const auto folder = testing::MakeCandidateFolder(dir / "candidates");
  LabelStore pass1(dir / "candidates" / "labels.sqlite");
  std::set<std::string> not_judged_by_ann;
  for (const char* wnid : {"n01440764", "n02102040", "n03417042"}) {
    for (const char* photo : {"/photo1", "/photo2", "/photo3"}) {
      const std::string id = std::string(wnid) + photo;
      if (std::string(photo) == "/photo1") {
        pass1.AppendLabel(id, "ann", Label::kCorrect, 1);
      } else {
        not_judged_by_ann.insert(id);
      }
      pass1.AppendLabel(id, "ben", Label::kCorrect, 1);
    }
  }
  FreezeHoldout(folder.manifest, folder.dir, CurrentDecisions(pass1.Events()), ParseFreezeRule("majority", 1),
                dir / "holdout", "");
  const datasets::Holdout holdout = datasets::ReadHoldout(dir / "holdout");
  ASSERT_EQ(holdout.items.size(), 9u);
  testing::CandidateFolder second{dir / "holdout", SecondPassManifest(folder.manifest, holdout, "holdout")};
  const fs::path pass2_file = dir / "holdout" / kSecondPassStoreFile;
  LabelStore pass2(pass2_file);
  ServerOptions options = testing::RunningServer::DefaultOptions();
  options.assignment.excluded = ItemsSeenBy(pass1.Events());
  testing::RunningServer server(second, pass2, options);
  const fs::path script = SourceDir() / "tests" / "browser" / "pass2_page.mjs";

  const auto ann = RunCommand({"node", script.string(), server.base_url() + "/?labeler=ann"});
  ASSERT_EQ(ann.exit_code, 0) << "stdout: " << ann.out << "\nstderr: " << ann.err;
  const nlohmann::json seen = nlohmann::json::parse(ann.out);
  EXPECT_EQ(seen["overall_start"], "0 / 6") << seen.dump(1);
  EXPECT_EQ(seen["overall_end"], "6 / 6") << seen.dump(1);
  const std::vector<std::string> shown = seen["shown"].get<std::vector<std::string>>();
  EXPECT_EQ(shown.size(), 6u) << seen.dump(1);
  EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()), not_judged_by_ann) << seen.dump(1);
  std::set<std::string> stored;
  for (const Row& row : ReadEvents(pass2_file)) {
    EXPECT_EQ(row.labeler, "ann");
    EXPECT_EQ(row.label, "correct");
    stored.insert(row.item);
  }
  EXPECT_EQ(stored, not_judged_by_ann);
  EXPECT_EQ(ReadEvents(pass2_file).size(), 6u);
  EXPECT_EQ(ReadEvents(dir / "candidates" / "labels.sqlite").size(), 12u) << "pass 1's store untouched";

  const auto ben = RunCommand({"node", script.string(), server.base_url() + "/?labeler=ben"});
  ASSERT_EQ(ben.exit_code, 0) << "stdout: " << ben.out << "\nstderr: " << ben.err;
  const nlohmann::json ben_seen = nlohmann::json::parse(ben.out);
  EXPECT_TRUE(ben_seen["shown"].empty()) << ben_seen.dump(1);
  EXPECT_EQ(ben_seen["overall_end"], "0 / 0") << ben_seen.dump(1);
  EXPECT_NE(ben_seen["done_text"].get<std::string>().find("Nothing to label for you"), std::string::npos)
      << ben_seen.dump(1);
  EXPECT_EQ(ReadEvents(pass2_file).size(), 6u);
}

}  // namespace
}  // namespace evalsuite::labeling
