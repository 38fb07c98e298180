// Which kind of file a path a user gave is, told the same way by every command before it opens, creates or
// changes anything: a folder, a missing or empty file, evalsuite's run store or label store (SQLite files told apart
// by their tables), another SQLite file evalsuite writes (crawl state, API call ledger, hash cache), or a file that
// is not SQLite at all. A store given where the other kind is wanted is refused with what it is ("this is a label
// store, not a run store") instead of the schema error or SQLite message the wrong open would give, and the file is
// only read (never a journal mode, table or version written).
#pragma once

#include <filesystem>
#include <string>

namespace evalsuite {

enum class FileKind {
  kMissing,
  kFolder,
  kEmpty,        // a file of 0 bytes, or a SQLite file without tables: a fresh store of any kind
  kRunStore,     // studies, runs (store/schema.h)
  kLabelStore,   // events (labeling/label_store.h)
  kCrawlState,   // Flickr crawl state (datasets/flickr/crawl_state.h)
  kCallLedger,   // Flickr API call ledger (datasets/flickr/shared_call_ledger.h)
  kHashCache,    // reference hash cache (datasets/images/reference_hash_cache.h)
  kOtherSqlite,  // SQLite, but none of evalsuite's files
  kNotSqlite,    // any other file (JSON, TOML, text, an image...)
  kUnreadable,   // SQLite, but its tables cannot be read now (being created by another process, locked)
};

// Looks at the path without changing it or creating anything beside it (SQLite is opened read-only, as immutable
// unless a -wal file holds part of the database).
FileKind DetectFileKind(const std::filesystem::path& path);

// "a label store", "a folder", "not a SQLite file" ... as the phrase after "this is".
std::string DescribeFileKind(FileKind kind);

// For a SQLite file of evalsuite's about to be opened (a store, crawl state, a ledger, a cache): throws an
// evalsuite::Error naming the path unless it is missing (when `may_be_missing`), empty, unreadable now (the open
// that follows reports it), or of the `wanted` kind:
// "this is a label store, not a run store (written by `evalsuite label serve`); nothing was changed in it".
void RequireStoreKind(const std::filesystem::path& path, FileKind wanted, bool may_be_missing);

// For a file read as input (a plan, a log, a JSON file): "" when it may be one, else what it is instead, from its
// kind: "this is a run store (written by `evalsuite study run` and `evalsuite import`), not a study file (...); a
// run store is given as --store, or to `evalsuite report`, `compare` and `study show`". Missing files and folders
// are "" (the caller names those its own way).
std::string InputFileProblem(const std::filesystem::path& path, const std::string& what);

// For an input file (a plan, a JSON file): throws naming the path when it is missing, a folder or one of the SQLite
// files above, saying which file was expected ("is a folder, not a study file (a .toml plan)").
void RequireReadableFile(const std::filesystem::path& path, const std::string& what);

}  // namespace evalsuite
