// RunStore on SQLite in WAL mode (the schema and its upgrades: schema.h).
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "common/environment.h"
#include "common/error.h"
#include "common/file_kind.h"
#include "stats/curve.h"
#include "store/run_store.h"
#include "store/schema.h"
#include "store/sqlite_db.h"

namespace evalsuite::store {
namespace {

nlohmann::json ParseJsonColumn(const SqliteDb& db, const std::string& text, const std::string& what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw IoError(db.file().string(), "corrupt " + what + " in the store: " + e.what());
  }
}

// SQLite stores a NaN double as NULL; a NaN metric (a diverged run) comes back as NaN.
std::optional<double> Finite(double value) { return std::isnan(value) ? std::nullopt : std::optional<double>(value); }

class SqliteRunStore : public RunStore {
 public:
  explicit SqliteRunStore(const std::filesystem::path& file, bool read_only = false)
      : RunStore(file), db_(file, read_only) {
    OpenSchema(db_, read_only);
  }

  std::unique_ptr<Transaction> Begin() override {
    class Scope : public Transaction {
     public:
      explicit Scope(SqliteDb& db) : transaction_(db) {}
      void Commit() override { transaction_.Commit(); }

     private:
      SqliteTransaction transaction_;
    };
    return std::make_unique<Scope>(db_);
  }

  int64_t CreateStudy(const std::string& name, const std::string& kind, const nlohmann::json& plan,
                      const nlohmann::json& environment) override {
    if (name.empty()) throw InputError("name", "a study needs a name");
    SqliteTransaction transaction(db_);
    {
      SqliteStatement exists(db_, "SELECT id FROM studies WHERE name = ?");
      exists.Bind(1, name);
      if (exists.Step()) {
        throw InputError(file().string(), "a study named '" + name + "' exists already in this store");
      }
    }
    std::string now = UtcNowIso8601();
    SqliteStatement insert(db_,
                           "INSERT INTO studies (name, kind, created_at, plan, environment) VALUES (?, ?, ?, ?, ?)");
    insert.Bind(1, name).Bind(2, kind).Bind(3, now).Bind(4, plan.dump()).Bind(5, environment.dump()).Run();
    int64_t id = db_.LastInsertId();
    InsertInvocation(id, kind == "import" ? "import" : "study run", plan, environment, now);
    transaction.Commit();
    return id;
  }

  void RecordInvocation(int64_t study_id, const std::string& command, const nlohmann::json& plan,
                        const nlohmann::json& environment) override {
    SqliteTransaction transaction(db_);
    InsertInvocation(study_id, command, plan, environment, UtcNowIso8601());
    SqliteStatement update(db_, "UPDATE studies SET plan = ? WHERE id = ?");
    update.Bind(1, plan.dump()).Bind(2, study_id).Run();
    transaction.Commit();
  }

  void SetStudyEnvironmentKey(int64_t study_id, const std::string& key, const nlohmann::json& value) override {
    SqliteTransaction transaction(db_);
    SqliteStatement select(db_, "SELECT environment FROM studies WHERE id = ?");
    select.Bind(1, study_id);
    if (!select.Step()) throw InputError(file().string(), "no study with id " + std::to_string(study_id));
    nlohmann::json environment = ParseJsonColumn(db_, select.Text(0), "study environment");
    if (!environment.is_object()) environment = nlohmann::json::object();
    environment[key] = value;
    SqliteStatement update(db_, "UPDATE studies SET environment = ? WHERE id = ?");
    update.Bind(1, environment.dump()).Bind(2, study_id).Run();
    transaction.Commit();
  }

  void MoveRunDir(int64_t study_id, const std::string& from, const std::string& to) override {
    SqliteStatement update(db_, "UPDATE runs SET run_dir = ? WHERE study_id = ? AND run_dir = ?");
    update.Bind(1, to).Bind(2, study_id).Bind(3, from).Run();
  }

  void UpsertEntry(int64_t study_id, const EntryRecord& entry) override {
    SqliteStatement& upsert = Prepared(upsert_entry_, R"sql(
      INSERT INTO entries (study_id, name, description, source, metric, time_unit, threshold, extra_thresholds,
                           extra)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (study_id, name) DO UPDATE SET description = excluded.description, source = excluded.source,
        metric = excluded.metric, time_unit = excluded.time_unit, threshold = excluded.threshold,
        extra_thresholds = excluded.extra_thresholds, extra = excluded.extra)sql");
    upsert.Bind(1, study_id)
        .Bind(2, entry.name)
        .Bind(3, entry.description)
        .Bind(4, entry.source)
        .Bind(5, entry.metric)
        .Bind(6, entry.time_unit)
        .Bind(7, entry.threshold)
        .Bind(8, nlohmann::json(entry.extra_thresholds).dump())
        .Bind(9, entry.extra.dump())
        .Run();
  }

  int64_t InsertRun(int64_t study_id, const RunRecord& run) override {
    SqliteTransaction transaction(db_);
    int attempt = 0;
    {
      SqliteStatement& next = Prepared(next_attempt_,
                                       "SELECT COALESCE(MAX(attempt) + 1, 0) FROM runs WHERE study_id = ? AND "
                                       "entry = ? AND run_index = ?");
      next.Bind(1, study_id).Bind(2, run.entry).Bind(3, run.run_index);
      next.Step();
      attempt = static_cast<int>(next.Int(0));
      next.Reset();
    }
    const analysis::RunStatus status = StatusOf(run, IsResumableStudy(study_id));
    SqliteStatement& insert = Prepared(insert_run_, R"sql(
      INSERT INTO runs (study_id, entry, run_index, attempt, status, threads, exit_status, signal, stderr_tail,
                        run_dir, train_seconds, wall_seconds, error, header, warnings, recorded_at, outcome)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?))sql");
    insert.Bind(1, study_id)
        .Bind(2, run.entry)
        .Bind(3, run.run_index)
        .Bind(4, attempt)
        .Bind(5, std::string(runlog::LogEndName(run.log.status)))
        .Bind(6, run.threads)
        .Bind(7, run.exit_status)
        .Bind(8, run.signal)
        .Bind(9, run.stderr_tail)
        .Bind(10, run.run_dir)
        .Bind(11, run.log.train_seconds)
        .Bind(12, run.log.wall_seconds)
        .Bind(13, run.log.error)
        .Bind(14, run.log.header.dump())
        .Bind(15, nlohmann::json(run.log.warnings).dump())
        .Bind(16, UtcNowIso8601())
        .Bind(17, std::string(analysis::RunStatusKey(status)));
    try {
      insert.Run();
    } catch (const Error& e) {
      // A foreign-key failure means the study id is wrong: say so rather than quoting SQLite.
      throw IoError(file().string(), "cannot record run " + std::to_string(run.run_index) + " of '" + run.entry +
                                         "' in study " + std::to_string(study_id) + ": " + e.message());
    }
    int64_t run_id = db_.LastInsertId();
    SqliteStatement& point = Prepared(insert_point_, R"sql(
      INSERT INTO points (run_id, seq, epoch, train_seconds, wall_seconds, metric, train_loss)
      VALUES (?, ?, ?, ?, ?, ?, ?))sql");
    int seq = 0;
    for (const runlog::EvalPoint& p : run.log.points) {
      std::optional<double> loss = p.train_loss ? Finite(*p.train_loss) : std::nullopt;
      point.Bind(1, run_id)
          .Bind(2, seq++)
          .Bind(3, p.epoch)
          .Bind(4, p.train_seconds)
          .Bind(5, p.wall_seconds)
          .Bind(6, Finite(p.metric))
          .Bind(7, loss)
          .Run();
    }
    SqliteStatement& seed = Prepared(insert_seed_, "INSERT INTO seeds (run_id, name, value) VALUES (?, ?, ?)");
    const nlohmann::json seeds = analysis::RunSeedsToJson(run.seeds);  // the store's edge: one row per name
    for (auto it = seeds.begin(); it != seeds.end(); ++it) {
      if (it.value().is_null()) continue;
      seed.Bind(1, run_id).Bind(2, it.key()).Bind(3, it.value().dump()).Run();
    }
    nlohmann::json execution = run.execution.is_object() ? run.execution : nlohmann::json::object();
    if (run.log.hardware.is_object()) execution["hardware"] = run.log.hardware;
    if (!execution.empty()) {
      SqliteStatement facts(db_, "INSERT INTO run_execution (run_id, facts) VALUES (?, ?)");
      facts.Bind(1, run_id).Bind(2, execution.dump()).Run();
    }
    transaction.Commit();
    return run_id;
  }

  std::vector<StudyInfo> ListStudies() override {
    std::vector<StudyInfo> studies;
    SqliteStatement select(db_, std::string(kStudyColumns) + " ORDER BY s.id");
    while (select.Step()) studies.push_back(ReadStudy(select));
    return studies;
  }

  std::optional<StudyInfo> FindStudy(const std::string& name_or_id) override {
    {
      SqliteStatement by_name(db_, std::string(kStudyColumns) + " WHERE s.name = ?");
      by_name.Bind(1, name_or_id);
      if (by_name.Step()) return ReadStudy(by_name);
    }
    if (!name_or_id.empty() && name_or_id.find_first_not_of("0123456789") == std::string::npos &&
        name_or_id.size() < 18) {
      SqliteStatement by_id(db_, std::string(kStudyColumns) + " WHERE s.id = ?");
      by_id.Bind(1, static_cast<int64_t>(std::stoll(name_or_id)));
      if (by_id.Step()) return ReadStudy(by_id);
    }
    return std::nullopt;
  }

  std::vector<EntryRecord> LoadEntries(int64_t study_id) override {
    std::vector<EntryRecord> entries;
    SqliteStatement select(db_, R"sql(
      SELECT name, description, source, metric, time_unit, threshold, extra_thresholds, extra
      FROM entries WHERE study_id = ? ORDER BY rowid)sql");
    select.Bind(1, study_id);
    while (select.Step()) {
      EntryRecord entry;
      entry.name = select.Text(0);
      entry.description = select.Text(1);
      entry.source = select.Text(2);
      entry.metric = select.Text(3);
      entry.time_unit = select.Text(4);
      entry.threshold = select.Double(5);
      entry.extra_thresholds = ParseJsonColumn(db_, select.Text(6), "extra thresholds").get<std::vector<double>>();
      entry.extra = ParseJsonColumn(db_, select.Text(7), "entry facts");
      entries.push_back(std::move(entry));
    }
    return entries;
  }

  std::vector<RunRecord> LoadRuns(int64_t study_id) override {
    std::vector<RunRecord> runs;
    SqliteStatement select(db_, R"sql(
      SELECT id, entry, run_index, attempt, status, threads, exit_status, signal, stderr_tail, run_dir,
             train_seconds, wall_seconds, error, header, warnings, recorded_at, outcome
      FROM runs WHERE study_id = ? ORDER BY entry, run_index, attempt)sql");
    select.Bind(1, study_id);
    SqliteStatement points(db_, R"sql(
      SELECT epoch, train_seconds, wall_seconds, metric, train_loss FROM points WHERE run_id = ? ORDER BY seq)sql");
    SqliteStatement seeds(db_, "SELECT name, value FROM seeds WHERE run_id = ? ORDER BY rowid");
    std::optional<SqliteStatement> facts;
    {
      SqliteStatement exists(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run_execution'");
      if (exists.Step()) facts.emplace(db_, "SELECT facts FROM run_execution WHERE run_id = ?");
    }
    while (select.Step()) {
      RunRecord run;
      run.id = select.Int(0);
      run.entry = select.Text(1);
      run.run_index = static_cast<int>(select.Int(2));
      run.attempt = static_cast<int>(select.Int(3));
      std::string status = select.Text(4);
      auto parsed = runlog::ParseLogEnd(status);
      if (!parsed)
        throw IoError(file().string(), "run " + std::to_string(run.id) + " has unknown status '" + status + "'");
      run.log.status = *parsed;
      run.threads = static_cast<int>(select.Int(5));
      if (!select.IsNull(6)) run.exit_status = static_cast<int>(select.Int(6));
      if (!select.IsNull(7)) run.signal = static_cast<int>(select.Int(7));
      run.stderr_tail = select.Text(8);
      run.run_dir = select.Text(9);
      run.log.train_seconds = select.Double(10);
      run.log.wall_seconds = select.Double(11);
      run.log.error = select.Text(12);
      run.log.header = ParseJsonColumn(db_, select.Text(13), "run header");
      run.log.warnings = ParseJsonColumn(db_, select.Text(14), "run warnings").get<std::vector<std::string>>();
      run.recorded_at = select.Text(15);
      run.status = ReadOutcome(select.Text(16), run.id);
      run.did_not_run = *run.status == analysis::RunStatus::kDidNotRun;
      points.Bind(1, run.id);
      while (points.Step()) {
        runlog::EvalPoint p;
        p.epoch = points.Double(0);
        p.train_seconds = points.Double(1);
        p.wall_seconds = points.Double(2);
        p.metric = points.IsNull(3) ? std::numeric_limits<double>::quiet_NaN() : points.Double(3);
        if (!points.IsNull(4)) p.train_loss = points.Double(4);
        run.log.points.push_back(p);
      }
      points.Reset();
      seeds.Bind(1, run.id);
      nlohmann::json stored_seeds = nlohmann::json::object();
      while (seeds.Step()) stored_seeds[seeds.Text(0)] = ParseJsonColumn(db_, seeds.Text(1), "seed");
      run.seeds = analysis::RunSeedsFromJson(stored_seeds);
      seeds.Reset();
      if (facts) {
        facts->Bind(1, run.id);
        if (facts->Step()) run.execution = ParseJsonColumn(db_, facts->Text(0), "run execution facts");
        // What the run's log said it achieved is kept with what it cost.
        if (run.execution.is_object() && run.execution.contains("hardware")) {
          run.log.hardware = run.execution["hardware"];
          run.execution.erase("hardware");
        }
        facts->Reset();
      }
      runs.push_back(std::move(run));
    }
    return runs;
  }

  std::vector<StoredAttempt> LoadAttempts(int64_t study_id) override {
    std::vector<StoredAttempt> attempts;
    SqliteStatement select(db_, R"sql(
      SELECT id, entry, run_index, attempt, outcome FROM runs WHERE study_id = ? ORDER BY entry, run_index, attempt)sql");
    select.Bind(1, study_id);
    while (select.Step()) {
      StoredAttempt a;
      a.entry = select.Text(1);
      a.key.index = static_cast<int>(select.Int(2));
      a.key.attempt = static_cast<int>(select.Int(3));
      a.key.status = ReadOutcome(select.Text(4), select.Int(0));
      attempts.push_back(std::move(a));
    }
    return attempts;
  }

 private:
  analysis::RunStatus ReadOutcome(const std::string& key, int64_t run_id) const {
    if (std::optional<analysis::RunStatus> status = analysis::ParseRunStatusKey(key)) return *status;
    throw IoError(file().string(), "run " + std::to_string(run_id) + " has unknown outcome '" + key + "'");
  }

  // Whether the study is one that resume continues (kind "study"): its attempts without an end were interrupted.
  bool IsResumableStudy(int64_t study_id) {
    SqliteStatement& kind = Prepared(study_kind_, "SELECT kind FROM studies WHERE id = ?");
    kind.Bind(1, study_id);
    const bool resumable = kind.Step() && kind.Text(0) == "study";
    kind.Reset();
    return resumable;
  }

  // The study's counted runs, over its entries (analysis/run_counting.h).
  int CountedRuns(int64_t study_id) {
    std::map<std::string, std::vector<analysis::AttemptKey>> by_entry;
    for (StoredAttempt& a : LoadAttempts(study_id)) by_entry[a.entry].push_back(a.key);
    int counted = 0;
    for (const auto& [entry, keys] : by_entry) counted += analysis::TallyAttempts(keys).counted;
    return counted;
  }

  static constexpr const char* kStudyColumns = R"sql(
      SELECT s.id, s.name, s.kind, s.created_at, s.plan, s.environment FROM studies s)sql";

  StudyInfo ReadStudy(const SqliteStatement& row) {
    StudyInfo info;
    info.id = row.Int(0);
    info.name = row.Text(1);
    info.kind = row.Text(2);
    info.created_at = row.Text(3);
    info.plan = ParseJsonColumn(db_, row.Text(4), "study plan");
    info.environment = ParseJsonColumn(db_, row.Text(5), "study environment");
    info.runs_recorded = CountedRuns(info.id);
    return info;
  }

  void InsertInvocation(int64_t study_id, const std::string& command, const nlohmann::json& plan,
                        const nlohmann::json& environment, const std::string& when) {
    SqliteStatement insert(
        db_, "INSERT INTO invocations (study_id, started_at, command, plan, environment) VALUES (?, ?, ?, ?, ?)");
    insert.Bind(1, study_id).Bind(2, when).Bind(3, command).Bind(4, plan.dump()).Bind(5, environment.dump());
    try {
      insert.Run();
    } catch (const Error& e) {
      throw IoError(file().string(), "no study with id " + std::to_string(study_id) + ": " + e.message());
    }
  }

  // A statement prepared once per store: an import inserts thousands of runs, and preparing each statement per
  // run cost about as much as the inserts.
  SqliteStatement& Prepared(std::unique_ptr<SqliteStatement>& slot, const char* sql) {
    if (!slot) slot = std::make_unique<SqliteStatement>(db_, sql);
    slot->Reset();  // a use that threw half-way left it stepped
    return *slot;
  }

  SqliteDb db_;
  // Declared after db_, so destroyed (finalized) before the connection closes.
  std::unique_ptr<SqliteStatement> next_attempt_;
  std::unique_ptr<SqliteStatement> insert_run_;
  std::unique_ptr<SqliteStatement> insert_point_;
  std::unique_ptr<SqliteStatement> upsert_entry_;
  std::unique_ptr<SqliteStatement> insert_seed_;
  std::unique_ptr<SqliteStatement> study_kind_;
};

}  // namespace

bool IsFinishedRun(const RunRecord& run) {
  if (run.status)
    return *run.status != analysis::RunStatus::kInterrupted && *run.status != analysis::RunStatus::kUnended;
  return run.log.status != analysis::EndedAs::kNoEnd;
}

analysis::RunStatus StatusOf(const RunRecord& run, bool resumable) {
  if (run.status) return *run.status;
  return analysis::StatusOfAttempt(run.log.status, run.did_not_run, resumable);
}

bool DidNotRun(const RunRecord& run) { return StatusOf(run, true) == analysis::RunStatus::kDidNotRun; }

bool IsDoneRun(const RunRecord& run) { return analysis::CountsInStatistics(StatusOf(run, /*resumable=*/true)); }

stats::RunCurve RunCurveOf(const runlog::RunLog& log) {
  analysis::Run run;
  run.points.reserve(log.points.size());
  for (const runlog::EvalPoint& p : log.points) run.points.push_back({p.train_seconds, p.metric});
  run.time_spent = log.train_seconds;
  return analysis::TimeCurveOf(run);
}

std::unique_ptr<RunStore> RunStore::Open(const std::filesystem::path& file, bool create_if_missing) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    if (!create_if_missing) throw IoError(file.string(), "no such store (run a study or an import first)");
    auto parent = file.parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
      throw IoError(file.string(), "cannot create the store: folder " + parent.string() + " does not exist");
    }
  } else if (std::filesystem::is_directory(file, ec)) {
    throw IoError(file.string(), "is a folder, not a store file");
  }
  // A label store or any other file is refused before SQLite writes a journal mode or a table into it.
  RequireStoreKind(file, FileKind::kRunStore, create_if_missing);
  // A writing command needs the file and its folder writable (SQLite writes its journal beside the file);
  // access() says EROFS on a read-only mount even to root.
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  const bool exists = std::filesystem::exists(file, ec);
  if ((exists && access(file.c_str(), W_OK) != 0) || access(folder.c_str(), W_OK) != 0) {
    throw IoError(file.string(), std::string("the store is read-only (") + std::strerror(errno) +
                                     "): study list, study show and report can read it; study run, resume and "
                                     "import need a writable copy");
  }
  return std::make_unique<SqliteRunStore>(file);
}

std::unique_ptr<RunStore> RunStore::OpenForReading(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    throw IoError(file.string(), "no such store (run a study or an import first)");
  }
  if (std::filesystem::is_directory(file, ec)) throw IoError(file.string(), "is a folder, not a store file");
  if (DetectFileKind(file) == FileKind::kEmpty) {
    throw InputError(file.string(), "is an empty file, not a run store yet (run a study or an import into it first)");
  }
  RequireStoreKind(file, FileKind::kRunStore, /*may_be_missing=*/false);
  // A store of an older schema is upgraded once where it may be written (schema.h); a read-only one is refused
  // with the reason by the read-only open below.
  bool older = false;
  {
    SqliteDb peek(file, /*read_only=*/true);
    older = SchemaIsOlder(peek);
  }
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  if (older && access(file.c_str(), W_OK) == 0 && access(folder.c_str(), W_OK) == 0) {
    SqliteRunStore upgrade(file);
  }
  return std::make_unique<SqliteRunStore>(file, /*read_only=*/true);
}

}  // namespace evalsuite::store
