#include "datasets/images/reference_hash_cache.h"

#include <sqlite3.h>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/sqlite_shared_file.h"

namespace evalsuite::datasets {
namespace {

sqlite3* Db(void* db) { return static_cast<sqlite3*>(db); }

void Exec(void* db, const std::string& file, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(Db(db), sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw IoError(file, "SQLite failed: " + text);
  }
}

sqlite3_stmt* Prepare(void* db, const std::string& file, const char* sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(Db(db), sql, -1, &statement, nullptr) != SQLITE_OK) {
    throw IoError(file, std::string("SQLite prepare failed: ") + sqlite3_errmsg(Db(db)));
  }
  return statement;
}

}  // namespace

ReferenceHashCache::ReferenceHashCache(const std::filesystem::path& file) : file_(file.string()) {
  RequireStoreKind(file, FileKind::kHashCache, /*may_be_missing=*/true);
  sqlite3* db = nullptr;
  if (sqlite3_open(file_.c_str(), &db) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw IoError(file_, "cannot open the reference hash cache: " + message);
  }
  db_ = db;
  sqlite3_busy_timeout(db, 5000);
  std::string message;
  if (ExecWhileBusy(
          db,
          "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
          "CREATE TABLE IF NOT EXISTS hashes(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT "
          "NULL, phash INTEGER NOT NULL, mirrored INTEGER NOT NULL, failure TEXT NOT NULL,"
          " method TEXT NOT NULL DEFAULT 'opencv-phash-64+mirror');",
          5000, &message) != SQLITE_OK) {
    sqlite3_close(db);
    db_ = nullptr;
    throw IoError(file_, "SQLite failed: " + message);
  }
}

ReferenceHashCache::~ReferenceHashCache() { sqlite3_close(Db(db_)); }

std::optional<CachedHashes> ReferenceHashCache::Find(const std::string& path, int64_t size, int64_t mtime_ns) {
  sqlite3_stmt* s =
      Prepare(db_, file_, "SELECT phash, mirrored, failure FROM hashes WHERE path = ? AND size = ? AND mtime_ns = ?");
  sqlite3_bind_text(s, 1, path.data(), static_cast<int>(path.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 2, size);
  sqlite3_bind_int64(s, 3, mtime_ns);
  std::optional<CachedHashes> found;
  if (sqlite3_step(s) == SQLITE_ROW) {
    found.emplace();
    found->phash = static_cast<uint64_t>(sqlite3_column_int64(s, 0));
    found->mirrored = static_cast<uint64_t>(sqlite3_column_int64(s, 1));
    const unsigned char* failure = sqlite3_column_text(s, 2);
    if (failure != nullptr) found->failure = reinterpret_cast<const char*>(failure);
  }
  sqlite3_finalize(s);
  return found;
}

void ReferenceHashCache::Store(const std::string& path, int64_t size, int64_t mtime_ns, const CachedHashes& h) {
  sqlite3_stmt* s = Prepare(db_, file_,
                            "INSERT OR REPLACE INTO hashes(path, size, mtime_ns, phash, mirrored, failure) "
                            "VALUES(?,?,?,?,?,?)");
  sqlite3_bind_text(s, 1, path.data(), static_cast<int>(path.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 2, size);
  sqlite3_bind_int64(s, 3, mtime_ns);
  sqlite3_bind_int64(s, 4, static_cast<int64_t>(h.phash));
  sqlite3_bind_int64(s, 5, static_cast<int64_t>(h.mirrored));
  sqlite3_bind_text(s, 6, h.failure.data(), static_cast<int>(h.failure.size()), SQLITE_TRANSIENT);
  const int rc = sqlite3_step(s);
  sqlite3_finalize(s);
  if (rc != SQLITE_DONE) throw IoError(file_, std::string("SQLite insert failed: ") + sqlite3_errmsg(Db(db_)));
}

// IMMEDIATE: a deferred transaction that reads and then writes gets SQLITE_BUSY at once, without the busy
// handler, when another process writes the cache meanwhile.
void ReferenceHashCache::Begin() { Exec(db_, file_, "BEGIN IMMEDIATE"); }
void ReferenceHashCache::Commit() { Exec(db_, file_, "COMMIT"); }

}  // namespace evalsuite::datasets
