#include "store/schema.h"

#include <cstdint>
#include <string>

#include "analysis/run.h"
#include "analysis/run_decisions.h"
#include "common/error.h"
#include "common/sqlite_shared_file.h"
#include "runlog/run_log.h"

namespace evalsuite::store {
namespace {

// 1: the first schema. 2: runs.outcome, how each attempt ended (analysis::RunStatus), decided when it is recorded.
constexpr int kSchemaVersion = 2;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS studies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  created_at TEXT NOT NULL,
  plan TEXT NOT NULL,
  environment TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS invocations (
  id INTEGER PRIMARY KEY,
  study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
  started_at TEXT NOT NULL,
  command TEXT NOT NULL,
  plan TEXT NOT NULL,
  environment TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  source TEXT NOT NULL,
  metric TEXT NOT NULL,
  time_unit TEXT NOT NULL,
  threshold REAL NOT NULL,
  extra_thresholds TEXT NOT NULL,
  extra TEXT NOT NULL,
  PRIMARY KEY (study_id, name));
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  study_id INTEGER NOT NULL REFERENCES studies(id) ON DELETE CASCADE,
  entry TEXT NOT NULL,
  run_index INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL,
  threads INTEGER NOT NULL,
  exit_status INTEGER,
  signal INTEGER,
  stderr_tail TEXT NOT NULL,
  run_dir TEXT NOT NULL,
  train_seconds REAL NOT NULL,
  wall_seconds REAL NOT NULL,
  error TEXT NOT NULL,
  header TEXT NOT NULL,
  warnings TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  outcome TEXT,
  UNIQUE (study_id, entry, run_index, attempt));
CREATE TABLE IF NOT EXISTS points (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  epoch REAL NOT NULL,
  train_seconds REAL NOT NULL,
  wall_seconds REAL NOT NULL,
  metric REAL,
  train_loss REAL,
  PRIMARY KEY (run_id, seq));
CREATE TABLE IF NOT EXISTS seeds (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, name));
)sql";

constexpr const char* kExecutionTable = R"sql(
CREATE TABLE IF NOT EXISTS run_execution (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  facts TEXT NOT NULL);
)sql";

// Schema 1 to 2: each stored attempt's outcome. Version 1 said "did not run" only in the error's opening words (a
// failed attempt whose error opens with "did not run: " and that has no evaluation, or opens with "died of its
// environment: "); this reads them the way version 1's readers did, once, and stores the status.
void AddOutcomeColumn(SqliteDb& db) {
  db.Exec("ALTER TABLE runs ADD COLUMN outcome TEXT");
  SqliteStatement select(db, R"sql(
    SELECT r.id, r.status, r.error, EXISTS (SELECT 1 FROM points p WHERE p.run_id = r.id), s.kind
    FROM runs r JOIN studies s ON s.id = r.study_id)sql");
  SqliteStatement update(db, "UPDATE runs SET outcome = ? WHERE id = ?");
  while (select.Step()) {
    const std::string status = select.Text(1), error = select.Text(2);
    const bool has_points = select.Int(3) != 0;
    const analysis::EndedAs ended = runlog::ParseLogEnd(status).value_or(analysis::EndedAs::kNoEnd);
    const bool did_not_run = analysis::DidNotRunByErrorWords(ended, has_points, error);
    const analysis::RunStatus outcome = analysis::StatusOfAttempt(ended, did_not_run, select.Text(4) == "study");
    update.Bind(1, std::string(analysis::RunStatusKey(outcome))).Bind(2, select.Int(0)).Run();
    update.Reset();
  }
}

}  // namespace

int StoredSchemaVersion(SqliteDb& db) {
  SqliteStatement version(db, "PRAGMA user_version");
  version.Step();
  return static_cast<int>(version.Int(0));
}

bool SchemaIsOlder(SqliteDb& db) {
  const int found = StoredSchemaVersion(db);
  return found > 0 && found < kSchemaVersion;
}

void OpenSchema(SqliteDb& db, bool read_only) {
  if (read_only) {
    SqliteStatement version(db, "PRAGMA user_version");
    version.Step();
    if (version.Int(0) != kSchemaVersion) {
      throw IoError(db.file().string(), "the store's schema is version " + std::to_string(version.Int(0)) +
                                            ", this evalsuite reads " + std::to_string(kSchemaVersion) +
                                            " (open it once with a writing command to upgrade it)");
    }
    return;
  }
  db.Exec("PRAGMA foreign_keys = ON");
  int64_t found = 0;
  {
    SqliteStatement version(db, "PRAGMA user_version");
    version.Step();
    found = version.Int(0);
  }
  if (found > kSchemaVersion) {
    throw IoError(db.file().string(), "the store was written by a newer evalsuite (schema " + std::to_string(found) +
                                          ", this one reads " + std::to_string(kSchemaVersion) + ")");
  }
  std::string message;
  if (const int code = ExecWhileBusy(db.handle(), "PRAGMA journal_mode = WAL", kStoreBusyTimeoutMs, &message);
      code != SQLITE_OK) {
    db.Fail("switching to WAL", code);
  }
  db.Exec("PRAGMA synchronous = FULL");
  if (found < kSchemaVersion) {
    SqliteTransaction transaction(db);
    if (found == 0) {
      db.Exec(kSchema);
    } else if (found == 1) {
      AddOutcomeColumn(db);
    }
    db.Exec(kExecutionTable);
    db.Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
    transaction.Commit();
  } else {
    db.Exec(kExecutionTable);  // a store of this version from before run_execution (no-op when it is there)
  }
}

}  // namespace evalsuite::store
