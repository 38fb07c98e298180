#include "datasets/flickr/shared_call_ledger.h"

#include <sqlite3.h>

#include <cstdlib>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/sha256.h"
#include "common/sqlite_shared_file.h"

namespace evalsuite::flickr {
namespace {

sqlite3* AsSqlite3(void* db) { return static_cast<sqlite3*>(db); }

constexpr int kBusyTimeoutMs = 60000;

// One prepared statement, finalized on scope exit; ok() is false when SQLite could not prepare it.
class PreparedStatement {
 public:
  PreparedStatement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK) ok_ = false;
  }
  ~PreparedStatement() { sqlite3_finalize(statement_); }
  bool ok() const { return ok_; }
  sqlite3_stmt* get() { return statement_; }

 private:
  sqlite3_stmt* statement_ = nullptr;
  bool ok_ = true;
};

}  // namespace

std::string ApiKeyFingerprint(const std::string& api_key) {
  return Sha256Hex("evalsuite flickr api key:" + api_key).substr(0, 16);
}

std::filesystem::path DefaultCallLedgerFile() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state != nullptr && *state != '\0') return std::filesystem::path(state) / "evalsuite" / "flickr-api-calls.db";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".local" / "state" / "evalsuite" / "flickr-api-calls.db";
  }
  return {};
}

SharedCallLedger::SharedCallLedger(const std::filesystem::path& file, std::string key_fingerprint)
    : file_(file), key_(std::move(key_fingerprint)) {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  RequireStoreKind(file, FileKind::kCallLedger, /*may_be_missing=*/true);
  sqlite3* db = nullptr;
  if (sqlite3_open(file.string().c_str(), &db) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw IoError(file.string(), "cannot open the API call ledger: " + message);
  }
  db_ = db;
  // Concurrent crawls wait for each other's short transactions rather than fail.
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  SetUp("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
  SetUp(
      "CREATE TABLE IF NOT EXISTS api_calls_by_key(key TEXT NOT NULL, start REAL NOT NULL, deadline REAL NOT NULL,"
      " end REAL); CREATE INDEX IF NOT EXISTS api_calls_by_key_key ON api_calls_by_key(key, start);");
}

void SharedCallLedger::SetUp(const char* sql) {
  std::string message;
  if (ExecWhileBusy(AsSqlite3(db_), sql, kBusyTimeoutMs, &message) != SQLITE_OK) {
    sqlite3_close(AsSqlite3(db_));
    db_ = nullptr;
    throw IoError(file_.string(), "API call ledger: " + message);
  }
}

SharedCallLedger::~SharedCallLedger() { sqlite3_close(AsSqlite3(db_)); }

void SharedCallLedger::Fail(const std::string& what) {
  throw IoError(file_.string(), "API call ledger: " + what + ": " + sqlite3_errmsg(AsSqlite3(db_)));
}

void SharedCallLedger::Exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(AsSqlite3(db_), sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    throw IoError(file_.string(), "API call ledger: " + message);
  }
}

double SharedCallLedger::TryStart(double now, double deadline, const RateLimit& limit) {
  Exec("BEGIN IMMEDIATE");  // the write lock first: no other process checks the window until we commit
  try {
    std::vector<double> ends;
    {
      PreparedStatement select(AsSqlite3(db_),
                               "SELECT coalesce(end, deadline) FROM api_calls_by_key WHERE key = ?1 AND "
                               "coalesce(end, deadline) + ?2 > ?3");
      if (!select.ok()) Fail("prepare");
      sqlite3_bind_text(select.get(), 1, key_.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(select.get(), 2, limit.window_seconds);
      sqlite3_bind_double(select.get(), 3, now);
      int rc;
      while ((rc = sqlite3_step(select.get())) == SQLITE_ROW) ends.push_back(sqlite3_column_double(select.get(), 0));
      if (rc != SQLITE_DONE) Fail("read");
    }
    const double wait = SecondsUntilSlot(ends, now, limit);
    if (wait <= 0) {
      PreparedStatement prune(AsSqlite3(db_), "DELETE FROM api_calls_by_key WHERE coalesce(end, deadline) + ?1 <= ?2");
      if (!prune.ok()) Fail("prepare");
      // Another key's calls may use a longer window: keep a day of everything.
      sqlite3_bind_double(prune.get(), 1, std::max(limit.window_seconds, 86400.0));
      sqlite3_bind_double(prune.get(), 2, now);
      if (sqlite3_step(prune.get()) != SQLITE_DONE) Fail("prune");
      PreparedStatement insert(AsSqlite3(db_), "INSERT INTO api_calls_by_key(key, start, deadline) VALUES(?1, ?2, ?3)");
      if (!insert.ok()) Fail("prepare");
      sqlite3_bind_text(insert.get(), 1, key_.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(insert.get(), 2, now);
      sqlite3_bind_double(insert.get(), 3, deadline);
      if (sqlite3_step(insert.get()) != SQLITE_DONE) Fail("record a call");
      open_row_ = sqlite3_last_insert_rowid(AsSqlite3(db_));
    }
    Exec("COMMIT");
    return wait;
  } catch (...) {
    sqlite3_exec(AsSqlite3(db_), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void SharedCallLedger::Finish(double end) {
  if (open_row_ < 0) return;
  PreparedStatement update(AsSqlite3(db_), "UPDATE api_calls_by_key SET end = ?1 WHERE rowid = ?2");
  if (!update.ok()) Fail("prepare");
  sqlite3_bind_double(update.get(), 1, end);
  sqlite3_bind_int64(update.get(), 2, open_row_);
  if (sqlite3_step(update.get()) != SQLITE_DONE) Fail("finish a call");
  open_row_ = -1;
}

std::vector<double> SharedCallLedger::CallStarts() {
  PreparedStatement select(AsSqlite3(db_), "SELECT start FROM api_calls_by_key WHERE key = ?1 ORDER BY start");
  if (!select.ok()) Fail("prepare");
  sqlite3_bind_text(select.get(), 1, key_.c_str(), -1, SQLITE_TRANSIENT);
  std::vector<double> starts;
  while (sqlite3_step(select.get()) == SQLITE_ROW) starts.push_back(sqlite3_column_double(select.get(), 0));
  return starts;
}

}  // namespace evalsuite::flickr
