// Opening a SQLite file that several evalsuite processes may open at the same moment (the run store, the label
// store, the Flickr API call ledger, crawl state, the reference hash cache). SQLite's busy handler does not
// cover everything a first open does: switching a fresh file to WAL returns SQLITE_BUSY at once while another
// connection holds the file, so the second of two crawls started together failed with "database is locked".
// ExecWhileBusy retries such a statement until the timeout; it is for idempotent set-up statements only.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace evalsuite {

// Runs `sql` (one or more statements) with sqlite3_exec, again and again while SQLite answers SQLITE_BUSY or
// SQLITE_LOCKED, for up to `timeout_ms`, sleeping 1 ms, then twice as long each time up to 50 ms. Returns the
// last result code; on failure `error` (when given) holds SQLite's message. Called outside a transaction, a
// transaction that a failed try left open is rolled back before the next try.
int ExecWhileBusy(sqlite3* db, const std::string& sql, int timeout_ms, std::string* error = nullptr);

// A file: URI for sqlite3_open_v2 with SQLITE_OPEN_URI: the absolute path with the characters that mean something
// in a URI percent-encoded, then "?" and `query` ("mode=ro", "immutable=1").
std::string SqliteFileUri(const std::filesystem::path& file, const char* query);

}  // namespace evalsuite
