#include "datasets/flickr/crawl_state.h"

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/sqlite_shared_file.h"

namespace evalsuite::flickr {
namespace {

using nlohmann::json;

sqlite3* Db(void* db) { return static_cast<sqlite3*>(db); }

// One prepared statement, finalized on scope exit; SQLite failures become IoError naming the database.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& file, const char* sql) : db_(db), file_(file) {
    if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK) Fail("prepare");
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement& Bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& Bind(int index, int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
  }
  Statement& BindDouble(int index, double value) {
    sqlite3_bind_double(statement_, index, value);
    return *this;
  }
  bool Step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) Fail("step");
    return false;
  }
  std::string Text(int column) {
    const unsigned char* text = sqlite3_column_text(statement_, column);
    return text == nullptr ? ""
                           : std::string(reinterpret_cast<const char*>(text),
                                         static_cast<size_t>(sqlite3_column_bytes(statement_, column)));
  }
  int64_t Int(int column) { return sqlite3_column_int64(statement_, column); }
  double Double(int column) { return sqlite3_column_double(statement_, column); }

 private:
  [[noreturn]] void Fail(const char* what) {
    throw IoError(file_, std::string("SQLite ") + what + " failed: " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  std::string file_;
  sqlite3_stmt* statement_ = nullptr;
};

json PhotoToJson(const FlickrPhoto& p) {
  json j = {{"id", p.id},       {"owner", p.owner},     {"ownername", p.owner_name},
            {"title", p.title}, {"license", p.license}, {"datetaken", p.date_taken}};
  if (p.date_upload) j["dateupload"] = *p.date_upload;
  for (const auto& [size, url] :
       {std::pair<const char*, const PhotoUrl*>{"m", &p.url_m}, {"z", &p.url_z}, {"l", &p.url_l}}) {
    if (url->url.empty()) continue;
    j[std::string("url_") + size] = url->url;
    j[std::string("width_") + size] = url->width;
    j[std::string("height_") + size] = url->height;
  }
  return j;
}

}  // namespace

CrawlState::CrawlState(const std::filesystem::path& file) : file_(file) {
  RequireStoreKind(file, FileKind::kCrawlState, /*may_be_missing=*/true);
  sqlite3* db = nullptr;
  if (sqlite3_open(file.string().c_str(), &db) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw IoError(file.string(), "cannot open the crawl state: " + message);
  }
  db_ = db;
  sqlite3_busy_timeout(db, 5000);
  // WAL + synchronous=NORMAL: a commit survives the process being killed (what resume needs) without an
  // fsync per row; only a power cut can lose the last few commits, which a rerun simply redoes.
  SetUp("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
  // The tables, and the columns added after the first release (what a page held that could not be used, and how many
  // entries it had), in one IMMEDIATE transaction: another process opening the file at the same moment sees all of
  // them or none (one that saw `settings` without `downloads` took the file for another program's: OpenedAtOnceTest),
  // and of two crawls opening an old file at once, only the first adds the columns.
  SetUp("BEGIN IMMEDIATE");
  try {
    Exec(R"sql(
    CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS searches(wnid TEXT NOT NULL, text TEXT NOT NULL, page INTEGER NOT NULL,
      pages INTEGER NOT NULL, total INTEGER NOT NULL, photos TEXT NOT NULL,
      PRIMARY KEY(wnid, text, page));
    CREATE TABLE IF NOT EXISTS downloads(url TEXT PRIMARY KEY, stored INTEGER NOT NULL, sha256 TEXT,
      path TEXT, width INTEGER, height INTEGER, bytes INTEGER, reason_code TEXT, reason TEXT);
  )sql");
    bool has_skipped = false;
    {
      Statement columns(Db(db_), file_.string(), "SELECT name FROM pragma_table_info('searches')");
      while (columns.Step()) has_skipped = has_skipped || columns.Text(0) == "skipped";
    }
    if (!has_skipped) {
      Exec(
          "ALTER TABLE searches ADD COLUMN skipped TEXT NOT NULL DEFAULT '[]';"
          "ALTER TABLE searches ADD COLUMN entries INTEGER NOT NULL DEFAULT -1;");
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(Db(db_), "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(Db(db_));  // the constructor throws: no destructor closes it
    db_ = nullptr;
    throw;
  }
}

void CrawlState::SetUp(const std::string& sql) {
  std::string message;
  if (ExecWhileBusy(Db(db_), sql, 5000, &message) != SQLITE_OK) {
    sqlite3_close(Db(db_));  // the constructor throws: no destructor closes it
    db_ = nullptr;
    throw IoError(file_.string(), "SQLite failed: " + message);
  }
}

CrawlState::~CrawlState() { sqlite3_close(Db(db_)); }

void CrawlState::Exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(Db(db_), sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw IoError(file_.string(), "SQLite failed: " + text);
  }
}

void CrawlState::CheckOrStoreSettings(const std::map<std::string, std::string>& settings) {
  for (const auto& [key, value] : settings) {
    Statement find(Db(db_), file_.string(), "SELECT value FROM settings WHERE key = ?");
    find.Bind(1, key);
    if (find.Step()) {
      const std::string stored = find.Text(0);
      if (stored != value) {
        throw UsageError(key, "this crawl folder (" + file_.parent_path().string() + ") was started with " + key +
                                  " = " + stored + ", not " + value +
                                  "; rerun with the same setting or use a new --out folder");
      }
      continue;
    }
    Statement insert(Db(db_), file_.string(), "INSERT INTO settings(key, value) VALUES(?, ?)");
    insert.Bind(1, key).Bind(2, value).Step();
  }
}

std::optional<std::string> CrawlState::FindSetting(const std::string& key) {
  Statement find(Db(db_), file_.string(), "SELECT value FROM settings WHERE key = ?");
  find.Bind(1, key);
  if (!find.Step()) return std::nullopt;
  return find.Text(0);
}

std::optional<StoredSearch> CrawlState::FindSearch(const std::string& text, int page) {
  Statement find(Db(db_), file_.string(),
                 "SELECT pages, total, photos, skipped, entries FROM searches WHERE text = ? AND page = ? "
                 "ORDER BY rowid LIMIT 1");
  find.Bind(1, text).Bind(2, int64_t{page});
  if (!find.Step()) return std::nullopt;
  StoredSearch search;
  search.pages = find.Int(0);
  search.total = find.Int(1);
  // Stored in the response's own shape, so the same tolerant parser reads it back.
  const json photos = {{"stat", "ok"}, {"photos", {{"photo", json::parse(find.Text(2))}}}};
  search.photos = ParseSearchResponse(photos.dump(), file_.string()).page.photos;
  const json skipped = json::parse(find.Text(3), nullptr, /*allow_exceptions=*/false);
  if (skipped.is_array()) {
    for (const json& reason : skipped) {
      if (reason.is_string()) search.skipped.push_back(reason.get<std::string>());
    }
  }
  const int64_t entries = find.Int(4);
  search.entries = entries >= 0 ? entries : static_cast<int64_t>(search.photos.size() + search.skipped.size());
  return search;
}

void CrawlState::StoreSearch(const std::string& wnid, const std::string& text, int page, const StoredSearch& search) {
  json photos = json::array();
  for (const FlickrPhoto& photo : search.photos) photos.push_back(PhotoToJson(photo));
  Statement insert(Db(db_), file_.string(),
                   "INSERT OR REPLACE INTO searches(wnid, text, page, pages, total, photos, skipped, entries) "
                   "VALUES(?,?,?,?,?,?,?,?)");
  insert.Bind(1, wnid).Bind(2, text).Bind(3, int64_t{page}).Bind(4, search.pages).Bind(5, search.total);
  insert.Bind(6, photos.dump()).Bind(7, json(search.skipped).dump()).Bind(8, search.entries).Step();
}

int64_t CrawlState::searches_stored() {
  Statement count(Db(db_), file_.string(), "SELECT COUNT(*) FROM searches");
  count.Step();
  return count.Int(0);
}

std::map<std::string, StoredDownload> CrawlState::LoadDownloads() {
  std::map<std::string, StoredDownload> downloads;
  Statement select(Db(db_), file_.string(),
                   "SELECT url, stored, sha256, path, width, height, bytes, reason_code, reason FROM downloads");
  while (select.Step()) {
    StoredDownload d;
    d.stored = select.Int(1) != 0;
    d.sha256 = select.Text(2);
    d.path = select.Text(3);
    d.width = static_cast<int>(select.Int(4));
    d.height = static_cast<int>(select.Int(5));
    d.bytes = select.Int(6);
    d.reason_code = select.Text(7);
    d.reason = select.Text(8);
    downloads[select.Text(0)] = std::move(d);
  }
  return downloads;
}

void CrawlState::StoreDownload(const std::string& url, const StoredDownload& d) {
  Statement insert(Db(db_), file_.string(),
                   "INSERT OR REPLACE INTO downloads(url, stored, sha256, path, width, height, bytes, reason_code, "
                   "reason) VALUES(?,?,?,?,?,?,?,?,?)");
  insert.Bind(1, url).Bind(2, int64_t{d.stored ? 1 : 0}).Bind(3, d.sha256).Bind(4, d.path);
  insert.Bind(5, int64_t{d.width}).Bind(6, int64_t{d.height}).Bind(7, d.bytes).Bind(8, d.reason_code);
  insert.Bind(9, d.reason).Step();
}

}  // namespace evalsuite::flickr
