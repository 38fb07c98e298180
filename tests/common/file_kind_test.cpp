// Which kind of file a path is (common/file_kind.h): evalsuite's SQLite files told apart by their tables,
// read without changing a byte, and refused by name where another kind is wanted.
#include "common/file_kind.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// A SQLite file in WAL mode (as the stores are) holding these statements' tables.
fs::path WriteSqlite(const fs::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, ("PRAGMA journal_mode = WAL; " + sql).c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  return file;
}

TEST(FileKindTest, TellsEachKindApart) {
  TempDir dir;
  EXPECT_EQ(DetectFileKind(dir / "missing.db"), FileKind::kMissing);
  EXPECT_EQ(DetectFileKind(dir.path()), FileKind::kFolder);
  WriteFile(dir / "empty.db", "");
  EXPECT_EQ(DetectFileKind(dir / "empty.db"), FileKind::kEmpty);
  WriteFile(dir / "plan.json", "{\"a\": 1}");
  EXPECT_EQ(DetectFileKind(dir / "plan.json"), FileKind::kNotSqlite);
  WriteFile(dir / "fake.db", std::string("SQLite format 3\0garbage garbage garbage", 40));
  // A SQLite header it cannot read past is left to the store's own open (a file another process is creating).
  EXPECT_EQ(DetectFileKind(dir / "fake.db"), FileKind::kUnreadable);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "runs.db", "CREATE TABLE studies(id); CREATE TABLE runs(id);")),
            FileKind::kRunStore);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "labels.db", "CREATE TABLE events(seq);")), FileKind::kLabelStore);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "crawl.db", "CREATE TABLE searches(a); CREATE TABLE downloads(b);")),
            FileKind::kCrawlState);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "ledger.db", "CREATE TABLE api_calls_by_key(key);")),
            FileKind::kCallLedger);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "hashes.db", "CREATE TABLE hashes(path);")), FileKind::kHashCache);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "other.db", "CREATE TABLE t(x);")), FileKind::kOtherSqlite);
  EXPECT_EQ(DetectFileKind(WriteSqlite(dir / "blank.db", "")), FileKind::kEmpty);
}

TEST(FileKindTest, RefusesTheOtherKindByNameAndChangesNothing) {
  TempDir dir;
  const fs::path labels = WriteSqlite(dir / "labels.db", "CREATE TABLE events(seq); INSERT INTO events VALUES (1);");
  const fs::path runs = WriteSqlite(dir / "runs.db", "CREATE TABLE studies(id); CREATE TABLE runs(id);");
  const std::string label_bytes = ReadFile(labels), run_bytes = ReadFile(runs);
  try {
    RequireStoreKind(labels, FileKind::kRunStore, true);
    FAIL() << "a label store passed as a run store";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    EXPECT_EQ(std::string(e.what()), labels.string() +
                                         ": this is a label store, not a run store (written by `evalsuite label "
                                         "serve`); nothing was changed in it");
  }
  try {
    RequireStoreKind(runs, FileKind::kLabelStore, true);
    FAIL() << "a run store passed as a label store";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("this is a run store, not a label store"), std::string::npos) << e.what();
  }
  EXPECT_EQ(ReadFile(labels), label_bytes);
  EXPECT_EQ(ReadFile(runs), run_bytes);
  EXPECT_FALSE(fs::exists(labels.string() + "-wal"));  // nothing created beside it either
  EXPECT_FALSE(fs::exists(labels.string() + "-shm"));

  EXPECT_NO_THROW(RequireStoreKind(runs, FileKind::kRunStore, false));
  EXPECT_NO_THROW(RequireStoreKind(dir / "new.db", FileKind::kRunStore, true));
  EXPECT_FALSE(fs::exists(dir / "new.db"));
  EXPECT_THROW(RequireStoreKind(dir / "new.db", FileKind::kRunStore, false), Error);
  try {
    RequireStoreKind(dir.path(), FileKind::kLabelStore, true);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("is a folder, not a label store file"), std::string::npos) << e.what();
  }
}

// Issue 50 item 10: `study run my.db` gave a TOML parse error and `import my.db` "not an MLPerf result log ...
// invalid UTF-8". A store named where an input file is read is said to be what it is, with where it belongs.
TEST(FileKindTest, AStoreGivenAsAnInputFileIsNamed) {
  TempDir dir;
  const fs::path runs = WriteSqlite(dir / "my.db", "CREATE TABLE studies(id); CREATE TABLE runs(id);");
  try {
    RequireReadableFile(runs, "a study file (a TOML plan such as studies/quick.toml)");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              runs.string() +
                  ": this is a run store (written by `evalsuite study run` and `evalsuite import`), not a "
                  "study file (a TOML plan such as studies/quick.toml); a run store is given as --store, "
                  "or to `evalsuite report`, `compare` and `study show`");
  }
  const fs::path labels = WriteSqlite(dir / "labels.db", "CREATE TABLE events(seq);");
  EXPECT_EQ(InputFileProblem(labels, "a training log to import"),
            "this is a label store (written by `evalsuite label serve`), not a training log to import");
  // What may be an input says nothing: text, an empty file, and what the caller names itself (missing, a folder).
  WriteFile(dir / "plan.toml", "entries = []\n");
  EXPECT_EQ(InputFileProblem(dir / "plan.toml", "a study file"), "");
  WriteFile(dir / "empty.toml", "");
  EXPECT_EQ(InputFileProblem(dir / "empty.toml", "a study file"), "");
  EXPECT_EQ(InputFileProblem(dir / "missing.toml", "a study file"), "");
  EXPECT_EQ(InputFileProblem(dir.path(), "a study file"), "");
}

TEST(FileKindTest, InputFilesMustBeFilesNotFolders) {
  TempDir dir;
  try {
    RequireReadableFile(dir.path(), "a study file");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), dir.path().string() + ": is a folder, not a study file");
  }
  try {
    RequireReadableFile(dir / "nope.toml", "a study file");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "nope.toml").string() + ": no such file (a study file was expected)");
  }
}

// The CI failure of CrawlCliTest.AKillDuringARateLimitWaitLosesNoDownloadAndTheResumeFetchesNothingTwice: a download
// worker opening its own crawl state looked at the file's kind first, and reading the header through an fd of its
// own and closing it dropped every POSIX lock this process held on the file (close() releases a process's locks on
// the file, whichever fd took them). Another process closing its connection then took itself for the last one,
// checkpointed and deleted the -wal and -shm files, and the open connections went on committing into the deleted log:
// three downloads recorded, one kept. Looking at the kind of a file this process has open must keep its locks.
TEST(FileKindTest, LookingAtAFileThisProcessHasOpenKeepsItsLocks) {
  TempDir dir;
  const fs::path file = dir / "crawl.db";
  sqlite3* open = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &open), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(open,
                         "PRAGMA journal_mode = WAL; CREATE TABLE searches(a); CREATE TABLE downloads(url);"
                         "INSERT INTO downloads VALUES ('first');",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  EXPECT_EQ(DetectFileKind(file), FileKind::kCrawlState);
  EXPECT_NO_THROW(RequireStoreKind(file, FileKind::kCrawlState, false));

  // Another process opens the file, reads it and closes its connection (the sqlite3 program, from setup.sh).
  const auto other = testing::RunCommand({"sqlite3", file.string(), "SELECT count(*) FROM downloads;"});
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_EQ(other.out, "1\n");
  EXPECT_TRUE(fs::exists(file.string() + "-wal")) << "the other process deleted the log this process writes to";

  ASSERT_EQ(sqlite3_exec(open, "INSERT INTO downloads VALUES ('second');", nullptr, nullptr, nullptr), SQLITE_OK);
  const auto after = testing::RunCommand({"sqlite3", file.string(), "SELECT url FROM downloads ORDER BY rowid;"});
  EXPECT_EQ(after.out, "first\nsecond\n") << "a commit of the open connection was lost";
  sqlite3_close(open);
}

}  // namespace
}  // namespace evalsuite
