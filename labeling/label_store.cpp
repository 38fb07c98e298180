#include "labeling/label_store.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <set>

#include "common/environment.h"
#include "common/error.h"
#include "common/file_kind.h"
#include "common/sqlite_shared_file.h"
#include "labeling/labeler_name.h"

namespace evalsuite::labeling {
namespace {

// Version 2 adds what was shown (image_sha256, displayed_at); a version-1 store gains the columns on open.
constexpr int kSchemaVersion = 2;

// Append-only by construction: CHECKs keep labels in the allowed set, triggers refuse UPDATE and DELETE.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS events(
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  item    TEXT NOT NULL,
  labeler TEXT NOT NULL,
  action  TEXT NOT NULL CHECK (action IN ('label', 'undo')),
  label   TEXT NOT NULL CHECK (label IN ('correct', 'incorrect', 'unsure')),
  undoes  INTEGER REFERENCES events(seq),
  time    TEXT NOT NULL,
  seconds REAL NOT NULL DEFAULT 0 CHECK (seconds >= 0),
  image_sha256 TEXT NOT NULL DEFAULT '',
  displayed_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS events_by_labeler ON events(labeler, seq);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'the label log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'the label log is append-only'); END;
)sql";

constexpr const char* kSelectColumns =
    "SELECT seq, item, labeler, action, label, undoes, time, seconds, image_sha256, displayed_at FROM events";

// A prepared statement finalized at scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& where) : db_(db), where_(where) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) Fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void Bind(int index, const std::string& text) {
    if (sqlite3_bind_text(stmt_, index, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT) != SQLITE_OK)
      Fail("bind");
  }
  void Bind(int index, double value) {
    if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) Fail("bind");
  }
  void Bind(int index, int64_t value) {
    if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) Fail("bind");
  }
  void BindNull(int index) {
    if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) Fail("bind");
  }
  // True while there is a row.
  bool Step() {
    const int code = sqlite3_step(stmt_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    Fail("step");
    return false;
  }
  sqlite3_stmt* get() { return stmt_; }

 private:
  [[noreturn]] void Fail(const char* what) {
    throw IoError(where_, std::string("SQLite ") + what + " failed: " + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  std::string where_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string ColumnText(sqlite3_stmt* stmt, int column) {
  const unsigned char* text = sqlite3_column_text(stmt, column);
  return text ? reinterpret_cast<const char*>(text) : "";
}

LabelEvent EventFromRow(sqlite3_stmt* stmt) {
  LabelEvent event;
  event.seq = sqlite3_column_int64(stmt, 0);
  event.item_id = ColumnText(stmt, 1);
  event.labeler = ColumnText(stmt, 2);
  event.is_undo = ColumnText(stmt, 3) == "undo";
  event.label = ParseLabel(ColumnText(stmt, 4)).value_or(Label::kUnsure);  // the CHECK constraint guarantees it
  event.undoes = sqlite3_column_type(stmt, 5) == SQLITE_NULL ? 0 : sqlite3_column_int64(stmt, 5);
  event.time = ColumnText(stmt, 6);
  event.seconds = sqlite3_column_double(stmt, 7);
  event.image_sha256 = ColumnText(stmt, 8);
  event.displayed_at = ColumnText(stmt, 9);
  return event;
}

// Label events of one labeler that no undo has retracted, by seq.
std::map<int64_t, const LabelEvent*> StandingDecisions(const std::vector<LabelEvent>& events) {
  std::map<int64_t, const LabelEvent*> standing;
  for (const LabelEvent& event : events) {
    if (event.is_undo) {
      standing.erase(event.undoes);
    } else {
      standing[event.seq] = &event;
    }
  }
  return standing;
}

}  // namespace

std::string_view LabelName(Label label) {
  switch (label) {
    case Label::kCorrect:
      return "correct";
    case Label::kIncorrect:
      return "incorrect";
    case Label::kUnsure:
      return "unsure";
  }
  return "unsure";
}

std::optional<Label> ParseLabel(std::string_view text) {
  if (text == "correct") return Label::kCorrect;
  if (text == "incorrect") return Label::kIncorrect;
  if (text == "unsure") return Label::kUnsure;
  return std::nullopt;
}

std::map<std::pair<std::string, std::string>, Decision> CurrentDecisions(const std::vector<LabelEvent>& events) {
  // Undo retracts one event; the standing label of an item is its latest unretracted decision, so a retracted
  // relabel falls back to the label before it.
  std::set<int64_t> retracted;
  for (const LabelEvent& event : events) {
    if (event.is_undo) retracted.insert(event.undoes);
  }
  std::map<std::string, std::string> spelling;  // LabelerKey -> the first spelling in the log
  for (const LabelEvent& event : events) spelling.emplace(LabelerKey(event.labeler), event.labeler);
  std::map<std::pair<std::string, std::string>, Decision> decisions;
  for (const LabelEvent& event : events) {
    if (event.is_undo || retracted.count(event.seq)) continue;
    const std::string& labeler = spelling.at(LabelerKey(event.labeler));
    Decision& decision = decisions[{event.item_id, labeler}];
    if (event.seq >= decision.seq) decision = Decision{event.item_id, labeler, event.label, event.seq};
  }
  return decisions;
}

LabelStore::LabelStore(const std::filesystem::path& file) : file_(file) {
  if (file.has_parent_path() && !std::filesystem::is_directory(file.parent_path())) {
    throw IoError(file.string(), "the folder of the label store does not exist");
  }
  // A run store or any other file is refused before SQLite writes a journal mode or a table into it.
  RequireStoreKind(file, FileKind::kLabelStore, /*may_be_missing=*/true);
  if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw IoError(file.string(), "cannot open the label store: " + message);
  }
  constexpr int kBusyTimeoutMs = 10000;  // another labeling server may hold the write lock for a moment
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  try {
    // synchronous=FULL: a commit is on disk (WAL fsynced) before we acknowledge the decision.
    std::string message;
    if (ExecWhileBusy(db_, "PRAGMA journal_mode = WAL", kBusyTimeoutMs, &message) != SQLITE_OK) {
      throw IoError(file_.string(), "SQLite: " + message);
    }
    Exec("PRAGMA synchronous = FULL");
    Exec("PRAGMA foreign_keys = ON");
    // IMMEDIATE: two servers opening a version-1 store at once must not both add the columns.
    Exec("BEGIN IMMEDIATE");
    Exec(kSchema);
    int64_t found = 0;
    {
      Statement version(db_, "PRAGMA user_version", file_.string());
      found = version.Step() ? sqlite3_column_int64(version.get(), 0) : 0;
    }
    if (found == 1) {
      Exec("ALTER TABLE events ADD COLUMN image_sha256 TEXT NOT NULL DEFAULT ''");
      Exec("ALTER TABLE events ADD COLUMN displayed_at TEXT NOT NULL DEFAULT ''");
      found = 0;
    }
    if (found == 0) Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    Exec("COMMIT");
    if (found != 0 && found != kSchemaVersion) {
      throw InputError(file_.string(), "label store schema version " + std::to_string(found) +
                                           "; this evalsuite reads version " + std::to_string(kSchemaVersion));
    }
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

LabelStore::~LabelStore() { sqlite3_close(db_); }

void LabelStore::Exec(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    throw IoError(file_.string(), "SQLite: " + text);
  }
}

LabelEvent LabelStore::AppendLabel(const std::string& item_id, const std::string& labeler, Label label, double seconds,
                                   const ShownImage& shown) {
  std::lock_guard<std::mutex> lock(mutex_);
  LabelEvent event;
  event.item_id = item_id;
  event.labeler = labeler;
  event.label = label;
  event.time = evalsuite::UtcNowIso8601Millis();
  event.seconds = seconds;
  event.image_sha256 = shown.image_sha256;
  event.displayed_at = shown.displayed_at;
  Statement insert(db_,
                   "INSERT INTO events(item, labeler, action, label, undoes, time, seconds, image_sha256, "
                   "displayed_at) VALUES (?1, ?2, 'label', ?3, NULL, ?4, ?5, ?6, ?7)",
                   file_.string());
  insert.Bind(1, item_id);
  insert.Bind(2, labeler);
  insert.Bind(3, std::string(LabelName(label)));
  insert.Bind(4, event.time);
  insert.Bind(5, seconds);
  insert.Bind(6, shown.image_sha256);
  insert.Bind(7, shown.displayed_at);
  insert.Step();  // autocommit: durable when sqlite3_step returns
  event.seq = sqlite3_last_insert_rowid(db_);
  return event;
}

std::optional<LabelEvent> LabelStore::AppendUndo(const std::string& labeler,
                                                 const std::optional<std::string>& item_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  // IMMEDIATE takes the write lock first, so two processes cannot retract the same decision twice.
  Exec("BEGIN IMMEDIATE");
  try {
    std::vector<LabelEvent> events;
    {
      Statement select(db_, std::string(kSelectColumns) + " WHERE labeler = ?1 ORDER BY seq", file_.string());
      select.Bind(1, labeler);
      while (select.Step()) events.push_back(EventFromRow(select.get()));
    }
    const LabelEvent* target = nullptr;
    for (const auto& [seq, event] : StandingDecisions(events)) {
      if (!item_id || event->item_id == *item_id) target = event;  // the map is ordered: last one wins
    }
    if (!target) {
      Exec("COMMIT");
      return std::nullopt;
    }
    LabelEvent undo;
    undo.item_id = target->item_id;
    undo.labeler = labeler;
    undo.is_undo = true;
    undo.label = target->label;
    undo.undoes = target->seq;
    undo.time = evalsuite::UtcNowIso8601Millis();
    Statement insert(db_,
                     "INSERT INTO events(item, labeler, action, label, undoes, time, seconds) "
                     "VALUES (?1, ?2, 'undo', ?3, ?4, ?5, 0)",
                     file_.string());
    insert.Bind(1, undo.item_id);
    insert.Bind(2, labeler);
    insert.Bind(3, std::string(LabelName(undo.label)));
    insert.Bind(4, undo.undoes);
    insert.Bind(5, undo.time);
    insert.Step();
    undo.seq = sqlite3_last_insert_rowid(db_);
    Exec("COMMIT");
    return undo;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<LabelEvent> LabelStore::Query(const std::string& sql, const std::optional<std::string>& labeler) const {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement select(db_, sql, file_.string());
  if (labeler) select.Bind(1, *labeler);
  std::vector<LabelEvent> events;
  while (select.Step()) events.push_back(EventFromRow(select.get()));
  return events;
}

std::vector<LabelEvent> LabelStore::Events() const {
  return Query(std::string(kSelectColumns) + " ORDER BY seq", std::nullopt);
}

std::vector<std::string> LabelStore::Labelers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement select(db_, "SELECT labeler FROM events GROUP BY labeler ORDER BY MIN(seq)", file_.string());
  std::vector<std::string> labelers;
  while (select.Step()) {
    const unsigned char* text = sqlite3_column_text(select.get(), 0);
    labelers.emplace_back(text ? reinterpret_cast<const char*>(text) : "",
                          static_cast<std::size_t>(sqlite3_column_bytes(select.get(), 0)));
  }
  return labelers;
}

std::vector<LabelEvent> LabelStore::EventsOf(const std::string& labeler) const {
  return Query(std::string(kSelectColumns) + " WHERE labeler = ?1 ORDER BY seq", labeler);
}

}  // namespace evalsuite::labeling
