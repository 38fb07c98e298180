// A thin RAII layer over the SQLite C API for the run store: one connection, prepared statements with
// typed binds, transactions that roll back unless committed. Every SQLite failure becomes an IoError naming
// the database file and what was being done.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace evalsuite::store {

class SqliteDb;

class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  // Binds are 1-based like SQLite's.
  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, double value);
  SqliteStatement& Bind(int index, const std::string& value);
  SqliteStatement& BindNull(int index);
  template <typename T>
  SqliteStatement& Bind(int index, const std::optional<T>& value) {
    return value ? Bind(index, *value) : BindNull(index);
  }
  SqliteStatement& Bind(int index, int value) { return Bind(index, static_cast<int64_t>(value)); }

  // Steps once: true while a row is available.
  bool Step();
  // Runs a statement that returns no rows.
  void Run();
  void Reset();

  int64_t Int(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;
  bool IsNull(int column) const;

 private:
  SqliteDb& db_;
  sqlite3_stmt* statement_ = nullptr;
  std::string sql_;
};

// How long a store connection waits for another evalsuite process's write lock (a report while a study runs),
// and how long its set-up retries the switch to WAL (schema.cpp).
constexpr int kStoreBusyTimeoutMs = 10000;

class SqliteDb {
 public:
  // `read_only`: never writes, works on a read-only file, folder or mount (through the WAL when its shared-memory
  // file can be used, else as an immutable database, which is right for a store nobody writes).
  explicit SqliteDb(const std::filesystem::path& file, bool read_only = false);
  bool read_only() const { return read_only_; }
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  void Exec(const std::string& sql);
  int64_t LastInsertId() const;
  sqlite3* handle() { return db_; }
  const std::filesystem::path& file() const { return file_; }
  // Throws IoError naming the file, what was being done and SQLite's message.
  [[noreturn]] void Fail(const std::string& doing, int code) const;

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
  bool read_only_ = false;
};

// BEGIN IMMEDIATE on construction (a SAVEPOINT inside an open transaction); ROLLBACK on destruction unless
// Commit() ran.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb& db);
  ~SqliteTransaction();
  void Commit();

 private:
  SqliteDb& db_;
  bool nested_ = false;
  bool done_ = false;
};

}  // namespace evalsuite::store
