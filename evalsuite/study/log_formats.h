// Run-log formats an external entry may declare (`log_format` in a study), looked up by name, so that formats
// can be added without touching the scheduler. Built in: "jsonl" (evalsuite's JSON Lines,
// evalsuite/runlog/jsonl_run_log.h), "mlperf" (MLPerf result logs, evalsuite/runlog/mlperf_log.h) and "dawnbench"
// (a DAWNBench-style per-epoch TSV: epoch, hours, top1Accuracy/top5Accuracy in percent or f1Score).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "evalsuite/runlog/run_log.h"

namespace evalsuite::study {

// Reads a run's log from a file; a malformed line is a warning in RunLog::warnings, not an error.
using RunLogReader = std::function<runlog::RunLog(const std::filesystem::path& file)>;

constexpr const char* kDefaultLogFormat = "jsonl";

// Adds (or replaces) a format. Call at start-up, before any study is planned.
void RegisterRunLogFormat(const std::string& name, RunLogReader reader);
std::optional<RunLogReader> FindRunLogFormat(const std::string& name);
std::vector<std::string> RunLogFormatNames();

}  // namespace evalsuite::study
