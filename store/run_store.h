// The run store: one SQLite file (WAL mode) holding studies, their effective plans and environments, runs,
// per-evaluation points and seeds. A run is committed in one transaction when it ends, so a killed study
// loses no finished run. Imports (MLPerf, DAWNBench logs) land here as studies of kind "import".
// How an attempt ended is decided once, when it is recorded (StatusOf below), and stored in the column `outcome`;
// which attempts count in which figure is decided in analysis/run_counting.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/run.h"
#include "analysis/run_counting.h"
#include "runlog/run_log.h"

namespace evalsuite::store {

// One run as stored: which entry, which rerun, its seeds, its log, and how its process ended.
// A rerun may have several attempts: an interrupted one is kept (its points too), and statistics count the latest
// counted attempt of each run index (analysis/run_counting.h).
struct RunRecord {
  int64_t id = 0;            // assigned by the store (ignored by InsertRun)
  int attempt = 0;           // assigned by the store: 0 for the first record of (entry, run_index)
  std::string recorded_at;   // assigned by the store (UTC ISO 8601)
  std::string entry;         // entry name (built-in, external, or "system/benchmark" for imports)
  int run_index = 0;         // 0-based rerun number within the entry
  analysis::RunSeeds seeds;  // stored as a row per name (RunSeedsToJson), read back with RunSeedsFromJson
  runlog::RunLog log;        // points, the log's own end status, header, times
  // How the attempt ended (analysis/run.h). Writers leave it unset: the store decides it when it records the attempt
  // (StatusOf below) and stores it; an attempt loaded from the store has it.
  std::optional<analysis::RunStatus> status;
  // The executor's finding that the process died before its first evaluation, or of its environment after it
  // (study/execution/failure_cause.h ClassifyProcessFailure); its error says why.
  bool did_not_run = false;
  int threads = 0;
  std::optional<int> exit_status;  // of the child process, when there was one
  std::optional<int> signal;       // that killed it, when it was killed
  std::string stderr_tail;         // last lines of the child's stderr
  std::string run_dir;             // where the run's files are (log, models), may be empty
  // Where and at what cost it ran (table run_execution): "executor" ("local", "slurm"), "usage" {wall_seconds,
  // user_seconds, system_seconds, max_rss_kb}, "slurm" {job_id, array_job_id, array_task_id, node, state,
  // reason}, "devices" [...], "gpu" {sampled, samples, devices: [{index, peak_memory_used_mib,
  // mean_utilization_percent, ...}]} (gpu_sampler.h). Empty for imports and runs recorded before it existed.
  nlohmann::json execution = nlohmann::json::object();
};

// The facts about an entry that a report needs (one row per entry and study): the analysis layer's own type, so that
// loading an entry (store/analysis_entries.h) copies it whole instead of field by field.
using EntryRecord = analysis::EntryFacts;

struct StudyInfo {
  int64_t id = 0;
  std::string name;
  std::string kind;  // "study" or "import"
  std::string created_at;
  // The plan as stored (a study's: PlanToJson; an import's: what it imported). Read through the one decode,
  // study::DecodeStoredPlan (study/plans/stored_plan.h), never key by key.
  nlohmann::json plan;
  nlohmann::json environment;
  // Its counted runs (analysis/run_counting.h): what the report, `study show` and resume count.
  int runs_recorded = 0;
};

// True when the run ended (reached, not reached, or failed): its log has an end or its process was seen to end.
bool IsFinishedRun(const RunRecord& run);
// True when the attempt said nothing about the entry's training (analysis::RunStatus::kDidNotRun).
bool DidNotRun(const RunRecord& run);
// How the attempt ended: its stored status, or for a record not yet stored the one classification
// (analysis::StatusOfAttempt) from its log's end, the executor's did_not_run and whether its study is resumable
// (kind "study").
analysis::RunStatus StatusOf(const RunRecord& run, bool resumable);
// A study's attempt that counts (analysis::CountOf): resume has nothing to redo at its index.
bool IsDoneRun(const RunRecord& run);
// The run's curve for statistics (analysis::TimeCurveOf over its log).
stats::RunCurve RunCurveOf(const runlog::RunLog& log);

// One attempt as `study list` counts it, without its points.
struct StoredAttempt {
  std::string entry;
  analysis::AttemptKey key;
};

class RunStore {
 public:
  // Opens (creating when absent, unless create_if_missing is false) the store; throws IoError naming the
  // file when it is missing (and not to be created) or not a usable store.
  // A writing command on a read-only store (file, folder or mount) gets an IoError saying so.
  static std::unique_ptr<RunStore> Open(const std::filesystem::path& file, bool create_if_missing = true);
  // For reading commands (study list/show, report, --models-from-store): opens the store read-only, so they work
  // on a read-only file or mount; writing through it throws IoError.
  static std::unique_ptr<RunStore> OpenForReading(const std::filesystem::path& file);
  virtual ~RunStore() = default;

  // Study names are unique in a store: throws InputError naming the study when it exists already.
  virtual int64_t CreateStudy(const std::string& name, const std::string& kind, const nlohmann::json& plan,
                              const nlohmann::json& environment) = 0;
  // Records a later invocation (e.g. `study resume`) with its effective plan and environment; the study's
  // plan becomes this one. The history stays in the store (table `invocations`).
  virtual void RecordInvocation(int64_t study_id, const std::string& command, const nlohmann::json& plan,
                                const nlohmann::json& environment) = 0;
  // Sets one key of the study's recorded environment (what a later invocation measured once for the whole study,
  // e.g. its machine ceilings), keeping the rest.
  virtual void SetStudyEnvironmentKey(int64_t study_id, const std::string& key, const nlohmann::json& value) = 0;
  virtual void UpsertEntry(int64_t study_id, const EntryRecord& entry) = 0;
  // Commits the run and all its points in one transaction; returns the run's id.
  virtual int64_t InsertRun(int64_t study_id, const RunRecord& run) = 0;
  // The study's attempts recorded with run_dir `from` now name `to` (their folder was moved there).
  virtual void MoveRunDir(int64_t study_id, const std::string& from, const std::string& to) = 0;

  virtual std::vector<StudyInfo> ListStudies() = 0;
  virtual std::optional<StudyInfo> FindStudy(const std::string& name_or_id) = 0;
  virtual std::vector<EntryRecord> LoadEntries(int64_t study_id) = 0;
  // Every attempt, ordered by entry, run index and attempt, with its points.
  virtual std::vector<RunRecord> LoadRuns(int64_t study_id) = 0;
  // Every attempt's entry, index, attempt number and status (no points), in the same order.
  virtual std::vector<StoredAttempt> LoadAttempts(int64_t study_id) = 0;

  const std::filesystem::path& file() const { return file_; }

  // Everything written between Begin and Commit lands together or not at all (an import of many runs: a failure
  // half-way leaves the store as it was). Calls inside nest as savepoints.
  class Transaction {
   public:
    virtual ~Transaction() = default;  // rolls back unless committed
    virtual void Commit() = 0;
  };
  virtual std::unique_ptr<Transaction> Begin() = 0;

 protected:
  explicit RunStore(std::filesystem::path file) : file_(std::move(file)) {}

 private:
  std::filesystem::path file_;
};

}  // namespace evalsuite::store
