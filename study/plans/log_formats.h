// Run-log formats an external entry may declare (`log_format` in a study), looked up by name, so that formats
// can be added without touching the scheduler. Built in: "jsonl" (evalsuite's JSON Lines,
// runlog/jsonl_run_log.h), "mlperf" (MLPerf result logs, runlog/mlperf_log.h) and "dawnbench"
// (a DAWNBench-style per-epoch TSV: epoch, hours, top1Accuracy/top5Accuracy in percent or f1Score) and "regex"
// (the script's standard output read with the entry's named-group patterns, runlog/regex_log.h).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runlog/run_log.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {

// Reads a run's log from a file, with the entry's settings of its format (the regex format's patterns); a
// malformed line is a warning in RunLog::warnings, not an error.
using RunLogReader = std::function<runlog::RunLog(const std::filesystem::path& file, const PlannedEntry& entry)>;

// Where a format's log is: the file the command is told about ({log}), or what the command prints (the run
// folder's stdout.txt, which every executor writes).
enum class LogSource { kLogFile, kStdout };

struct RunLogFormat {
  RunLogReader read;
  LogSource source = LogSource::kLogFile;
  // Whether a log of this entry has an end record, so that a log without one means the run was cut short (the
  // regex format has one only when the entry gives log_end_regex).
  std::function<bool(const PlannedEntry& entry)> has_end_record = [](const PlannedEntry&) { return true; };
};

constexpr const char* kDefaultLogFormat = "jsonl";

// Adds (or replaces) a format. Call at start-up, before any study is planned.
void RegisterRunLogFormat(const std::string& name, RunLogFormat format);
std::optional<RunLogFormat> FindRunLogFormat(const std::string& name);
std::vector<std::string> RunLogFormatNames();
// The format an entry's runs are read with (built-in entries: JSON Lines); nullopt for an unknown name.
std::optional<RunLogFormat> FormatOfEntry(const PlannedEntry& entry);

}  // namespace evalsuite::study
