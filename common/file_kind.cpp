#include "common/file_kind.h"

#include <sqlite3.h>

#include <cstring>
#include <set>
#include <vector>

#include "common/error.h"
#include "common/sqlite_shared_file.h"

namespace evalsuite {
namespace fs = std::filesystem;
namespace {

// The header is read through SQLite's own file layer, never an fd of ours: closing any fd of a file drops every POSIX
// lock this process holds on it, the locks by which this process's open connections tell other processes they are
// there. Without them, another process closing its connection deletes the -wal file these connections commit to
// (FileKindTest.LookingAtAFileThisProcessHasOpenKeepsItsLocks). SQLite's close keeps such an fd open until the locks
// are released.
bool HasSqliteHeader(const fs::path& path) {
  static const char kMagic[] = "SQLite format 3";  // 16 bytes with its NUL
  sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
  if (vfs == nullptr) return false;
  std::vector<char> handle(static_cast<size_t>(vfs->szOsFile));
  auto* file = reinterpret_cast<sqlite3_file*>(handle.data());
  // A VFS takes a database name in the form sqlite3_create_filename makes (the name, then its URI parameters).
  std::error_code error;
  const std::string absolute = fs::absolute(path, error).string();
  if (error || absolute.empty()) return false;  // an empty name would be a temporary file to the VFS
  sqlite3_filename name = sqlite3_create_filename(absolute.c_str(), "", "", 0, nullptr);
  if (name == nullptr) return false;
  int flags = 0;
  bool header = false;
  if (vfs->xOpen(vfs, name, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags) == SQLITE_OK) {
    char head[16] = {0};
    header =
        file->pMethods->xRead(file, head, sizeof(head), 0) == SQLITE_OK && std::memcmp(head, kMagic, sizeof(head)) == 0;
  }
  if (file->pMethods != nullptr) file->pMethods->xClose(file);
  sqlite3_free_filename(name);
  return header;
}

// The file's table names through a read-only connection; false when SQLite cannot read them. Without a -wal file the
// main file is the whole database and is read as immutable (no lock, no -shm created beside it); with one, through
// a read-only connection that sees the log too, then as immutable if that cannot open.
bool TableNames(const fs::path& path, std::set<std::string>* tables) {
  std::error_code error;
  const bool has_log = fs::exists(path.string() + "-wal", error);
  std::vector<const char*> queries = {"immutable=1"};
  if (has_log) queries.insert(queries.begin(), "mode=ro");
  for (const char* query : queries) {
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(SqliteFileUri(path, query).c_str(), &db, flags, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      continue;
    }
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* statement = nullptr;
    bool ok = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &statement, nullptr) ==
              SQLITE_OK;
    std::set<std::string> names;
    int code = SQLITE_ROW;
    while (ok && (code = sqlite3_step(statement)) == SQLITE_ROW) {
      names.insert(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
    }
    ok = ok && code == SQLITE_DONE;
    sqlite3_finalize(statement);
    sqlite3_close(db);
    if (ok) {
      *tables = std::move(names);
      return true;
    }
  }
  return false;
}

// What writes each kind, for the hint after the refusal.
std::string WrittenBy(FileKind kind) {
  switch (kind) {
    case FileKind::kRunStore:
      return "written by `evalsuite study run` and `evalsuite import`";
    case FileKind::kLabelStore:
      return "written by `evalsuite label serve`";
    case FileKind::kCrawlState:
    case FileKind::kCallLedger:
      return "written by `evalsuite holdout crawl`";
    case FileKind::kHashCache:
      return "written by `evalsuite holdout dedupe`";
    default:
      return "";
  }
}

}  // namespace

FileKind DetectFileKind(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return FileKind::kMissing;
  if (fs::is_directory(status)) return FileKind::kFolder;
  if (fs::is_regular_file(status) && fs::file_size(path, error) == 0 && !error) return FileKind::kEmpty;
  if (!HasSqliteHeader(path)) return FileKind::kNotSqlite;
  std::set<std::string> tables;
  // A SQLite file this cannot read now (another process in the middle of creating it) is left to the open that
  // follows, which waits for its lock and names its own error.
  if (!TableNames(path, &tables)) return FileKind::kUnreadable;
  if (tables.empty()) return FileKind::kEmpty;
  if (tables.count("studies") && tables.count("runs")) return FileKind::kRunStore;
  if (tables.count("events")) return FileKind::kLabelStore;
  if (tables.count("searches") && tables.count("downloads")) return FileKind::kCrawlState;
  if (tables.count("api_calls_by_key")) return FileKind::kCallLedger;
  if (tables.count("hashes")) return FileKind::kHashCache;
  return FileKind::kOtherSqlite;
}

std::string DescribeFileKind(FileKind kind) {
  switch (kind) {
    case FileKind::kMissing:
      return "no such file";
    case FileKind::kFolder:
      return "a folder";
    case FileKind::kEmpty:
      return "an empty file";
    case FileKind::kRunStore:
      return "a run store";
    case FileKind::kLabelStore:
      return "a label store";
    case FileKind::kCrawlState:
      return "a Flickr crawl state file";
    case FileKind::kCallLedger:
      return "a Flickr API call ledger";
    case FileKind::kHashCache:
      return "a reference hash cache";
    case FileKind::kOtherSqlite:
      return "a SQLite file of another program";
    case FileKind::kNotSqlite:
      return "not a SQLite file";
    case FileKind::kUnreadable:
      return "a SQLite file that cannot be read now";
  }
  return "an unknown file";
}

void RequireStoreKind(const fs::path& path, FileKind wanted, bool may_be_missing) {
  const FileKind kind = DetectFileKind(path);
  if (kind == wanted || kind == FileKind::kEmpty || kind == FileKind::kUnreadable) return;
  // A crawl's state file may hold its API call ledger too (`holdout crawl` lets both share one file): either kind
  // opens as the other.
  const auto is_crawl_file = [](FileKind k) { return k == FileKind::kCrawlState || k == FileKind::kCallLedger; };
  if (is_crawl_file(kind) && is_crawl_file(wanted)) return;
  const std::string wanted_name = DescribeFileKind(wanted);
  if (kind == FileKind::kMissing) {
    if (may_be_missing) return;
    throw IoError(path.string(), "no such file (" + wanted_name + " was expected)");
  }
  if (kind == FileKind::kFolder) throw UsageError(path.string(), "is a folder, not " + wanted_name + " file");
  const std::string by = WrittenBy(kind);
  const std::string what = kind == FileKind::kNotSqlite ? "this is not a SQLite file, so not " + wanted_name
                                                        : "this is " + DescribeFileKind(kind) + ", not " + wanted_name;
  throw InputError(path.string(), what + (by.empty() ? "" : " (" + by + ")") + "; nothing was changed in it");
}

std::string InputFileProblem(const fs::path& path, const std::string& what) {
  const FileKind kind = DetectFileKind(path);
  if (kind == FileKind::kNotSqlite || kind == FileKind::kEmpty || kind == FileKind::kMissing ||
      kind == FileKind::kFolder) {
    return "";
  }
  const std::string by = WrittenBy(kind);
  std::string text = "this is " + DescribeFileKind(kind) + (by.empty() ? "" : " (" + by + ")") + ", not " + what;
  if (kind == FileKind::kRunStore) {
    text += "; a run store is given as --store, or to `evalsuite report`, `compare` and `study show`";
  }
  return text;
}

void RequireReadableFile(const fs::path& path, const std::string& what) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) throw IoError(path.string(), "no such file (" + what + " was expected)");
  if (fs::is_directory(status)) throw UsageError(path.string(), "is a folder, not " + what);
  const std::string problem = InputFileProblem(path, what);
  if (!problem.empty()) throw UsageError(path.string(), problem);
}

}  // namespace evalsuite
