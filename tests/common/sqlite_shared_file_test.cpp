// ExecWhileBusy: the set-up statements of a SQLite file that several processes open at once.
#include "common/sqlite_shared_file.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tests/support/open_at_once.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

sqlite3* OpenConnection(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  return db;
}

std::string JournalMode(sqlite3* db) {
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nullptr);
  std::string mode =
      sqlite3_step(statement) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)) : "";
  sqlite3_finalize(statement);
  return mode;
}

// The failure this exists for: with only the busy timeout, some of eight connections switching one fresh file to
// WAL at once get "database is locked" (SQLite does not call the busy handler there).
TEST(ExecWhileBusyTest, EightConnectionsSwitchingAFreshFileToWalAtOnceAllSucceed) {
  const auto errors = evalsuite::testing::ErrorsOpeningAtOnce(8, 30, [](const std::filesystem::path& file) {
    sqlite3* db = OpenConnection(file);
    std::string message;
    const int code = ExecWhileBusy(db, "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS t(x)", 10000, &message);
    const std::string mode = JournalMode(db);
    sqlite3_close(db);
    if (code != SQLITE_OK) throw std::runtime_error(message);
    if (mode != "wal") throw std::runtime_error("journal mode " + mode);
  });
  EXPECT_TRUE(errors.empty()) << errors.size() << " opens failed, first: " << errors.front();
}

TEST(ExecWhileBusyTest, GivesUpAfterItsTimeoutWithSqlitesMessage) {
  evalsuite::testing::TempDir dir;
  const auto file = dir.path() / "held.db";
  sqlite3* holder = OpenConnection(file);
  ASSERT_EQ(
      sqlite3_exec(holder, "CREATE TABLE t(x); BEGIN EXCLUSIVE; INSERT INTO t VALUES(1)", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3* waiter = OpenConnection(file);
  sqlite3_busy_timeout(waiter, 0);
  std::string message;
  const auto start = std::chrono::steady_clock::now();
  const int code = ExecWhileBusy(waiter, "PRAGMA journal_mode=WAL", 300, &message);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(code & 0xFF, SQLITE_BUSY);
  EXPECT_EQ(message, "database is locked");
  EXPECT_GE(waited, 0.3);
  EXPECT_LT(waited, 3.0);
  sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
  EXPECT_EQ(ExecWhileBusy(waiter, "PRAGMA journal_mode=WAL", 300, &message), SQLITE_OK) << message;
  sqlite3_close(waiter);
  sqlite3_close(holder);
}

TEST(ExecWhileBusyTest, AnErrorOtherThanBusyReturnsAtOnce) {
  evalsuite::testing::TempDir dir;
  sqlite3* db = OpenConnection(dir.path() / "x.db");
  std::string message;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ExecWhileBusy(db, "SELEC 1", 5000, &message), SQLITE_ERROR);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_NE(message.find("syntax error"), std::string::npos) << message;
  sqlite3_close(db);
}

}  // namespace
}  // namespace evalsuite
