// The label store: append-only events, undo as a new event, replay into standing decisions, WAL on disk.
#include "labeling/label_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "common/error.h"
#include "tests/support/open_at_once.h"
#include "tests/support/test_support.h"

namespace evalsuite::labeling {
namespace {

using evalsuite::testing::TempDir;

std::string PragmaText(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
  std::string value;
  if (sqlite3_step(stmt) == SQLITE_ROW) value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return value;
}

int ExecRaw(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
  return code;
}

// Two labeling servers started together on a new store: each opens it (the switch to WAL is retried while the
// other holds the file, as SQLite's busy handler does not cover it).
TEST(LabelStoreTest, EightServersOpeningANewStoreAtOnceAllOpenIt) {
  const auto errors =
      evalsuite::testing::ErrorsOpeningAtOnce(8, 15, [](const std::filesystem::path& file) { LabelStore store(file); });
  EXPECT_TRUE(errors.empty()) << errors.size() << " of 120 opens failed, first: " << errors.front();
}

TEST(LabelStoreTest, LabelsParseOnlyTheAllowedSet) {
  EXPECT_EQ(ParseLabel("correct"), Label::kCorrect);
  EXPECT_EQ(ParseLabel("incorrect"), Label::kIncorrect);
  EXPECT_EQ(ParseLabel("unsure"), Label::kUnsure);
  EXPECT_FALSE(ParseLabel("Correct"));
  EXPECT_FALSE(ParseLabel("yes"));
  EXPECT_FALSE(ParseLabel(""));
}

TEST(LabelStoreTest, AppendsEventsAndReplaysDecisions) {
  TempDir dir;
  LabelStore store(dir / "labels.sqlite");
  const LabelEvent a = store.AppendLabel("item1", "alice", Label::kCorrect, 1.5);
  const LabelEvent b = store.AppendLabel("item2", "alice", Label::kIncorrect, 2.0);
  store.AppendLabel("item1", "bob", Label::kUnsure, 0.5);
  EXPECT_LT(a.seq, b.seq);
  const auto events = store.Events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].item_id, "item1");
  EXPECT_EQ(events[0].labeler, "alice");
  EXPECT_EQ(events[0].label, Label::kCorrect);
  EXPECT_DOUBLE_EQ(events[0].seconds, 1.5);
  EXPECT_FALSE(events[0].time.empty());
  EXPECT_EQ(store.EventsOf("bob").size(), 1u);

  const auto decisions = CurrentDecisions(events);
  ASSERT_EQ(decisions.size(), 3u);
  EXPECT_EQ(decisions.at({"item1", "alice"}).label, Label::kCorrect);
  EXPECT_EQ(decisions.at({"item2", "alice"}).label, Label::kIncorrect);
  EXPECT_EQ(decisions.at({"item1", "bob"}).label, Label::kUnsure);
}

TEST(LabelStoreTest, UndoIsANewEventAndRetractsTheLatestDecision) {
  TempDir dir;
  LabelStore store(dir / "labels.sqlite");
  store.AppendLabel("item1", "alice", Label::kCorrect, 1);
  const LabelEvent second = store.AppendLabel("item2", "alice", Label::kIncorrect, 1);
  store.AppendLabel("item3", "bob", Label::kCorrect, 1);  // another labeler's decision is never undone by alice

  const auto undo = store.AppendUndo("alice", std::nullopt);
  ASSERT_TRUE(undo);
  EXPECT_TRUE(undo->is_undo);
  EXPECT_EQ(undo->undoes, second.seq);
  EXPECT_EQ(undo->item_id, "item2");
  EXPECT_EQ(undo->label, Label::kIncorrect);

  const auto events = store.Events();
  ASSERT_EQ(events.size(), 4u) << "undo appends, never deletes";
  const auto decisions = CurrentDecisions(events);
  EXPECT_EQ(decisions.count({"item2", "alice"}), 0u);
  EXPECT_EQ(decisions.count({"item1", "alice"}), 1u);
  EXPECT_EQ(decisions.count({"item3", "bob"}), 1u);

  // A second undo retracts the decision before; a third has nothing left.
  ASSERT_TRUE(store.AppendUndo("alice", std::nullopt));
  EXPECT_FALSE(store.AppendUndo("alice", std::nullopt));
  EXPECT_EQ(CurrentDecisions(store.Events()).size(), 1u);
  EXPECT_EQ(store.Events().size(), 5u);
}

TEST(LabelStoreTest, UndoOfARelabelFallsBackToTheEarlierLabel) {
  TempDir dir;
  LabelStore store(dir / "labels.sqlite");
  store.AppendLabel("item1", "alice", Label::kCorrect, 1);
  store.AppendLabel("item1", "alice", Label::kIncorrect, 1);
  EXPECT_EQ(CurrentDecisions(store.Events()).at({"item1", "alice"}).label, Label::kIncorrect);
  ASSERT_TRUE(store.AppendUndo("alice", std::string("item1")));
  EXPECT_EQ(CurrentDecisions(store.Events()).at({"item1", "alice"}).label, Label::kCorrect);
}

TEST(LabelStoreTest, UndoCanBeLimitedToOneItem) {
  TempDir dir;
  LabelStore store(dir / "labels.sqlite");
  const LabelEvent first = store.AppendLabel("item1", "alice", Label::kCorrect, 1);
  store.AppendLabel("item2", "alice", Label::kCorrect, 1);
  const auto undo = store.AppendUndo("alice", std::string("item1"));
  ASSERT_TRUE(undo);
  EXPECT_EQ(undo->undoes, first.seq);
  EXPECT_FALSE(store.AppendUndo("alice", std::string("item1")));
}

TEST(LabelStoreTest, IsWalAppendOnlyAndSurvivesReopening) {
  TempDir dir;
  const auto file = dir / "labels.sqlite";
  {
    LabelStore store(file);
    store.AppendLabel("item1", "alice", Label::kCorrect, 1);
  }
  EXPECT_EQ(PragmaText(file, "PRAGMA journal_mode"), "wal");
  EXPECT_NE(ExecRaw(file, "DELETE FROM events"), SQLITE_OK) << "the trigger must refuse deletions";
  EXPECT_NE(ExecRaw(file, "UPDATE events SET label = 'incorrect'"), SQLITE_OK) << "and updates";
  EXPECT_NE(ExecRaw(file,
                    "INSERT INTO events(item, labeler, action, label, time) "
                    "VALUES ('x', 'y', 'label', 'maybe', 'now')"),
            SQLITE_OK)
      << "labels outside the allowed set are refused by the schema too";
  LabelStore reopened(file);
  const auto events = reopened.Events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].label, Label::kCorrect);
}

TEST(LabelStoreTest, TwoConnectionsShareOneFile) {
  TempDir dir;
  LabelStore first(dir / "labels.sqlite");
  LabelStore second(dir / "labels.sqlite");
  first.AppendLabel("item1", "alice", Label::kCorrect, 1);
  second.AppendLabel("item1", "bob", Label::kIncorrect, 1);
  EXPECT_EQ(first.Events().size(), 2u);
  EXPECT_TRUE(second.AppendUndo("alice", std::nullopt));
  EXPECT_FALSE(first.AppendUndo("alice", std::nullopt)) << "the other connection already retracted it";
}

TEST(LabelStoreTest, MissingFolderIsAnIoError) {
  TempDir dir;
  try {
    LabelStore store(dir / "no" / "such" / "labels.sqlite");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find("labels.sqlite"), std::string::npos);
  }
}

}  // namespace
}  // namespace evalsuite::labeling
