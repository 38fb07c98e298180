// The run store's SQLite schema and its upgrades, in one place. Schema (PRAGMA user_version = 2):
//   studies(id, name UNIQUE, kind, created_at, plan, environment)      plan/environment as JSON text
//   invocations(study_id, started_at, command, plan, environment)      every `study run`/`resume`
//   entries(study_id, name, description, source, metric, time_unit, threshold, extra_thresholds, extra)
//   runs(id, study_id, entry, run_index, attempt, status, threads, exit_status, signal, stderr_tail, run_dir,
//        train_seconds, wall_seconds, error, header, warnings, recorded_at, outcome)
//        status: the log's own end ("reached", "not_reached", "failed", "incomplete"); outcome: how the attempt
//        ended (analysis::RunStatusKey: "reached", "not_reached", "failed", "interrupted", "unended",
//        "did_not_run"), decided when it is recorded; version 1 stores gain it on their first writing open
//   points(run_id, seq, epoch, train_seconds, wall_seconds, metric, train_loss)
//   seeds(run_id, name, value)                                         value as JSON text (uint64 safe)
//   run_execution(run_id, facts)    RunRecord::execution as JSON; created on any writing open, so older stores
//                                   gain it without a schema version change (readers treat it as optional);
//                                   its "hardware" key is RunLog::hardware (the log's end record), not execution
// synchronous=FULL: a commit survives a kill -9 of the process and a power cut.
#pragma once

#include "store/sqlite_db.h"

namespace evalsuite::store {

// Brings the file's schema to this evalsuite's version (creating it in an empty file) and sets the connection's
// pragmas (WAL, synchronous=FULL, foreign keys). Read-only: checks the version only. Throws IoError naming the file
// when it is newer than this evalsuite, or (read-only) older.
void OpenSchema(SqliteDb& db, bool read_only);
// The file's schema version (PRAGMA user_version; 0 for a new file), and whether it is one this evalsuite upgrades.
int StoredSchemaVersion(SqliteDb& db);
bool SchemaIsOlder(SqliteDb& db);

}  // namespace evalsuite::store
