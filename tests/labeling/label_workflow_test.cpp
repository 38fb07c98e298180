// What a decision records about what was shown (the served image's SHA-256 and the page's display time), the
// refusal to call an unreadable image correct, near-duplicate flags in the queue, and a version-1 store gaining
// the new columns on open.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "labeling/label_server.h"
#include "tests/labeling/labeling_fixture.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using nlohmann::json;

class LabelWorkflowTest : public ::testing::Test {
 protected:
  LabelWorkflowTest()
      : folder_(testing::MakeCandidateFolder(dir_ / "candidates")), store_(dir_ / "candidates" / "labels.sqlite") {}
  httplib::Result Post(const testing::RunningServer& server, const json& body) {
    httplib::Client client("127.0.0.1", server.port());
    return client.Post("/api/label", {{"X-CSRF-Token", server.server().page_token()}}, body.dump(), "application/json");
  }
  TempDir dir_;
  testing::CandidateFolder folder_;
  LabelStore store_;
};

TEST_F(LabelWorkflowTest, DecisionRecordsTheServedImageHashAndDisplayTime) {
  folder_.manifest.items[1].near_duplicates =
      json::array({{{"kind", "within"}, {"match", folder_.manifest.items[0].id}, {"distance", 2}},
                   {{"kind", "reference"}, {"match", "val/ILSVRC2012_val_00000001.JPEG"}, {"distance", 0}}});
  testing::RunningServer server(folder_, store_);
  const datasets::Candidate& item = folder_.manifest.items[0];
  httplib::Client client("127.0.0.1", server.port());
  ASSERT_EQ(client.Get(("/images/" + item.path).c_str())->status, 200);
  const double now_ms =
      std::chrono::duration<double, std::milli>(std::chrono::system_clock::now().time_since_epoch()).count();
  auto result = Post(server, {{"item", item.id}, {"label", "correct"}, {"seconds", 1.5}, {"displayed_at", now_ms}});
  ASSERT_TRUE(result);
  ASSERT_EQ(result->status, 200) << result->body;
  const LabelEvent event = store_.Events().back();
  EXPECT_EQ(event.image_sha256, item.sha256);
  EXPECT_EQ(event.image_sha256, Sha256FileHex(folder_.dir / item.path));
  ASSERT_EQ(event.displayed_at.size(), 24u) << event.displayed_at;  // 2026-11-23T15:04:05.123Z
  EXPECT_EQ(event.displayed_at.substr(0, 10), event.time.substr(0, 10));
  EXPECT_EQ(json::parse(result->body)["event"]["image_sha256"], item.sha256);
  // A display time from another day is refused, not stored.
  auto stale = Post(server, {{"item", item.id}, {"label", "correct"}, {"displayed_at", now_ms - 2 * 86400e3}});
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 400);
  // The queue carries dedupe's flags; a match among the candidates comes with its image.
  const json queue = json::parse(client.Get("/api/queue?labeler=alice")->body);
  json flags;
  for (const json& entry : queue["items"]) {
    if (entry["id"] == folder_.manifest.items[1].id) flags = entry["near_duplicates"];
  }
  ASSERT_EQ(flags.size(), 2u) << queue.dump();
  EXPECT_EQ(flags[0]["image"], "/images/" + item.path);
  EXPECT_EQ(flags[1]["distance"], 0);
  EXPECT_FALSE(flags[1].contains("image"));
}

TEST_F(LabelWorkflowTest, AnImageThatCannotBeReadIsNeverJudgedCorrect) {
  testing::RunningServer server(folder_, store_);
  const datasets::Candidate& item = folder_.manifest.items[2];
  fs::remove(folder_.dir / item.path);
  auto correct = Post(server, {{"item", item.id}, {"label", "correct"}});
  ASSERT_TRUE(correct);
  EXPECT_EQ(correct->status, 409) << correct->body;
  auto incorrect = Post(server, {{"item", item.id}, {"label", "incorrect"}});
  ASSERT_TRUE(incorrect);
  EXPECT_EQ(incorrect->status, 200) << incorrect->body;
  ASSERT_EQ(store_.Events().size(), 1u);
  EXPECT_EQ(store_.Events().front().image_sha256, "");
}

TEST(LabelStoreSchemaTest, VersionOneStoreGainsTheShownColumns) {
  TempDir dir;
  const fs::path file = dir / "labels.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE events(seq INTEGER PRIMARY KEY AUTOINCREMENT, item TEXT NOT NULL, labeler TEXT "
                         "NOT NULL, action TEXT NOT NULL, label TEXT NOT NULL, undoes INTEGER, time TEXT NOT NULL, "
                         "seconds REAL NOT NULL DEFAULT 0);"
                         "INSERT INTO events(item, labeler, action, label, time, seconds) VALUES "
                         "('a/1', 'ann', 'label', 'correct', '2026-01-01T00:00:00.000Z', 2);"
                         "PRAGMA user_version = 1;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  LabelStore store(file);
  ASSERT_EQ(store.Events().size(), 1u);
  EXPECT_EQ(store.Events()[0].labeler, "ann");
  EXPECT_EQ(store.Events()[0].image_sha256, "");
  store.AppendLabel("a/2", "ann", Label::kIncorrect, 1, {"ab12", "2026-01-01T00:00:01.000Z"});
  EXPECT_EQ(LabelStore(file).Events()[1].image_sha256, "ab12");
}

}  // namespace
}  // namespace evalsuite::labeling
