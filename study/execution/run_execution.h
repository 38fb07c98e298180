// What one planned run is as a process, and how its outcome becomes a stored record: the command line
// (`evalsuite train ...` for a built-in entry, the expanded template under /bin/sh for an external one), and
// the record built from its log, its exit and its stderr. A crash, an abort, a timeout or an OOM kill is a
// failed run with the reason; a run cut short by the study's own end is an incomplete attempt.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>

#include "common/child_process.h"
#include "store/run_store.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

constexpr const char* kRunLogFile = "log.jsonl";
constexpr const char* kRunStdoutFile = "stdout.txt";  // the command's standard output, whatever its log format
constexpr const char* kRunStderrFile = "stderr.txt";

// The file a run of `entry` leaves its log in: run_dir/log.jsonl ({log}), or run_dir/stdout.txt for a format read
// from the command's output (log_format = "regex").
std::filesystem::path RunLogPath(const PlannedEntry& entry, const std::filesystem::path& run_dir);

// Where a run's attempts live, one rule for every executor (local processes, a Slurm array): the run's latest
// attempt, the finished one once the run is done, is in out_dir/<entry>/run-003, where a user looks first; before
// the run starts again, an earlier try that was cut short or failed is moved aside to run-003.attempt-1, then
// run-003.attempt-2, ... (oldest first), and the store's record of it follows (RunRecorder::MoveAside).
std::filesystem::path RunDirFor(const StudyPlan& plan, const std::string& entry, int index);
// The k-th (k >= 1) earlier try of the run in `run_dir`: <run_dir>.attempt-<k>.
std::filesystem::path AsideDirFor(const std::filesystem::path& run_dir, int k);
// Moves the try in `run_dir` aside to the first <run_dir>.attempt-<k> that neither exists nor is `taken` (a folder
// a record still names); returns where it went. IoError naming the folder when it cannot.
std::filesystem::path MoveAttemptAside(const std::filesystem::path& run_dir,
                                       const std::function<bool(const std::filesystem::path&)>& taken = {});

// The child process of a run; `evalsuite_binary` runs built-in entries (`evalsuite train`).
ChildSpec BuildChildSpec(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                         const std::filesystem::path& run_dir, const std::filesystem::path& evalsuite_binary);

struct ChildOutcome {
  ChildExit exit;
  bool timed_out = false;
  double wall_seconds = 0;
  bool oom_killed = false;  // the kernel's OOM killer struck this cgroup while the run ran
};

// A run's cost as stored in RunRecord::execution["usage"].
nlohmann::json UsageToJson(double wall_seconds, const ResourceUsage& usage);

// The record of a run whose process ended. Status: failed when the process failed (non-zero exit, signal,
// timeout) or the log says so or holds no evaluation; else reached or not_reached, derived from the points
// and the entry's threshold (a log's own claim is not the truth). A process that failed before its first
// evaluation "did not run" (RunRecord::did_not_run, failure_cause.h MarkProcessFailed): its error carries the cause and
// a hint.
store::RunRecord CollectFinishedRun(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                    const std::filesystem::path& run_dir, const ChildOutcome& outcome);

// A run folder a killed study left unrecorded whose log is complete (it has its end record): the record of the
// finished run, read from the log (the process's exit status is not known any more); nullopt when the log has no
// end record.
std::optional<store::RunRecord> CollectCompletedOrphan(const StudyPlan& plan, const PlannedEntry& entry,
                                                       const PlannedRun& run, const std::filesystem::path& run_dir);

// The record of an attempt that did not end: whatever its log holds, status incomplete.
store::RunRecord CollectInterruptedRun(const StudyPlan& plan, const PlannedEntry& entry, const PlannedRun& run,
                                       const std::filesystem::path& run_dir, const std::string& why);

// Progress of a running run from the tail of its log (JSON Lines only): last epoch and metric seen.
struct LogProgress {
  std::optional<double> epoch;
  std::optional<double> metric;
};
LogProgress PeekLogProgress(const std::filesystem::path& log_file);
// The same for a run of `entry` in whatever format it logs: JSON Lines, or the tail of its output read with the
// regex format's patterns; nothing for formats without progress (MLPerf, DAWNBench TSV).
LogProgress PeekRunProgress(const PlannedEntry& entry, const std::filesystem::path& run_dir);

}  // namespace evalsuite::study
