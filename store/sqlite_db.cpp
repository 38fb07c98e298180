#include "store/sqlite_db.h"

#include <unistd.h>

#include "common/error.h"
#include "common/sqlite_shared_file.h"

namespace evalsuite::store {

namespace {

// True when the database can be read through this connection (a read-only WAL database needs its -shm file).
bool Readable(sqlite3* db) {
  return sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) == SQLITE_OK;
}

// The store file and its folder (where SQLite keeps the -wal and -shm files) may be written by this process.
bool Writable(const std::filesystem::path& file) {
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  return access(file.c_str(), W_OK) == 0 && access(folder.c_str(), W_OK) == 0;
}

}  // namespace

SqliteDb::SqliteDb(const std::filesystem::path& file, bool read_only) : file_(file), read_only_(read_only) {
  int code = SQLITE_OK;
  if (read_only && Writable(file)) {
    // A reader of a store it could write opens it read-write with writes refused (query_only): as the last connection
    // it then checkpoints and removes the -wal and -shm files, which a read-only connection leaves beside the store.
    code = sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (code == SQLITE_OK) code = sqlite3_exec(db_, "PRAGMA query_only = ON", nullptr, nullptr, nullptr);
  } else if (read_only) {
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    code = sqlite3_open_v2(SqliteFileUri(file, "mode=ro").c_str(), &db_, flags, nullptr);
    if (code == SQLITE_OK && !Readable(db_)) {
      sqlite3_close(db_);
      db_ = nullptr;
      code = sqlite3_open_v2(SqliteFileUri(file, "immutable=1").c_str(), &db_, flags, nullptr);
    }
  } else {
    code =
        sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  }
  if (code != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    sqlite3_close(db_);
    db_ = nullptr;
    throw IoError(file.string(), "cannot open the store: " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Another evalsuite process (a report while a study runs) may hold the write lock for a moment.
  sqlite3_busy_timeout(db_, kStoreBusyTimeoutMs);
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::Fail(const std::string& doing, int code) const {
  std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
  if (code == SQLITE_NOTADB) message += " (not an evalsuite store?)";
  throw IoError(file_.string(), doing + ": " + message);
}

void SqliteDb::Exec(const std::string& sql) {
  char* error = nullptr;
  int code = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  if (code != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errstr(code);
    sqlite3_free(error);
    if (code == SQLITE_NOTADB) message += " (not an evalsuite store?)";
    throw IoError(file_.string(), "SQLite error running '" + sql.substr(0, 60) + "': " + message);
  }
}

int64_t SqliteDb::LastInsertId() const { return sqlite3_last_insert_rowid(db_); }

SqliteStatement::SqliteStatement(SqliteDb& db, const std::string& sql) : db_(db), sql_(sql) {
  int code = sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &statement_, nullptr);
  if (code != SQLITE_OK) db_.Fail("preparing '" + sql.substr(0, 60) + "'", code);
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  int code = sqlite3_bind_int64(statement_, index, value);
  if (code != SQLITE_OK) db_.Fail("binding", code);
  return *this;
}
SqliteStatement& SqliteStatement::Bind(int index, double value) {
  int code = sqlite3_bind_double(statement_, index, value);
  if (code != SQLITE_OK) db_.Fail("binding", code);
  return *this;
}
SqliteStatement& SqliteStatement::Bind(int index, const std::string& value) {
  int code = sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (code != SQLITE_OK) db_.Fail("binding", code);
  return *this;
}
SqliteStatement& SqliteStatement::BindNull(int index) {
  int code = sqlite3_bind_null(statement_, index);
  if (code != SQLITE_OK) db_.Fail("binding", code);
  return *this;
}

bool SqliteStatement::Step() {
  int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  db_.Fail("running '" + sql_.substr(0, 60) + "'", code);
}

void SqliteStatement::Run() {
  while (Step()) {
  }
  Reset();
}

void SqliteStatement::Reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int64_t SqliteStatement::Int(int column) const { return sqlite3_column_int64(statement_, column); }
double SqliteStatement::Double(int column) const { return sqlite3_column_double(statement_, column); }
std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), sqlite3_column_bytes(statement_, column))
              : std::string();
}
bool SqliteStatement::IsNull(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }

// Inside an open transaction (an import writing many runs as one), a savepoint: it commits into the outer
// transaction, or rolls back only its own part.
SqliteTransaction::SqliteTransaction(SqliteDb& db) : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
  db_.Exec(nested_ ? "SAVEPOINT evalsuite_nested" : "BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
  if (done_) return;
  if (nested_) {
    sqlite3_exec(db_.handle(), "ROLLBACK TO evalsuite_nested; RELEASE evalsuite_nested", nullptr, nullptr, nullptr);
  } else {
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

void SqliteTransaction::Commit() {
  db_.Exec(nested_ ? "RELEASE evalsuite_nested" : "COMMIT");
  done_ = true;
}

}  // namespace evalsuite::store
