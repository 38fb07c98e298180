// A run as every part of evalsuite shares it: one training run of one entry with one seed, its evaluation
// points, how it ended, and the header facts (entry, hyperparameters, seeds, threads, environment).
// TTA is derived from the points and a threshold (stats/curve.h), never stored as the truth.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run.h"
#include "stats/stability.h"

namespace evalsuite::runlog {

struct EvalPoint {
  double epoch = 0;          // may be fractional (DAWNBench logs)
  double train_seconds = 0;  // training time so far, evaluation excluded (DAWNBench's rule)
  double wall_seconds = 0;   // wall time since the run started, evaluation included
  double metric = 0;         // the entry's metric, e.g. validation top-1 accuracy as a fraction
  std::optional<double> train_loss;
  long line = 0;  // the line in the source file the evaluation was read from, for warnings; 0 = unknown
};

// How the log ended is analysis::EndedAs, the one enum for it (reached, not reached, failed, no end record); the
// store turns it into the attempt's analysis::RunStatus (analysis::StatusOfAttempt). These are the log format's words
// for it: "reached", "not_reached", "failed", "incomplete".
const char* LogEndName(analysis::EndedAs end);
std::optional<analysis::EndedAs> ParseLogEnd(const std::string& name);
// An evaluation's epoch for people: "3" at an epoch's end, "2.25" within an epoch (several evaluations per epoch).
std::string FormatEpoch(double epoch);

struct RunLog {
  nlohmann::json header = nlohmann::json::object();  // entry, hyperparameters, seeds, threads, environment...
  std::vector<EvalPoint> points;
  analysis::EndedAs status = analysis::EndedAs::kNoEnd;
  double train_seconds = 0;  // total training time used (from the end record, else the last point)
  double wall_seconds = 0;
  std::string error;                  // why a failed run failed, when known
  std::vector<std::string> warnings;  // "file:line: what was skipped"
  // The end record's "hardware" block of a built-in run (training/step_accounting.h): FLOPs per sample,
  // achieved FLOP/s per phase, time and memory breakdowns; null when the log has none.
  nlohmann::json hardware;
};

// The entry a run belongs to, as its source names it. One rule for every importer (JSON Lines, DAWNBench, MLPerf,
// the frameworks' logs): the header's "entry" when it is a non-empty string; else the name of the folder the file
// lies in; else (a file at the root) the file's stem. Never another file's entry.
struct RunEntryName {
  std::string name;
  const char* rule = "header";  // "header", "folder" or "file name": how `name` was found, for the user
};
RunEntryName EntryOfRun(const nlohmann::json& header, const std::filesystem::path& file);
// Runs grouped by the entry their sources name (EntryOfRun's names, one per run): groups in the order of their first
// run, runs in input order within a group. Every run is in exactly one group.
struct EntryGroup {
  std::string entry;
  std::vector<std::size_t> runs;  // indices into the input
};
std::vector<EntryGroup> GroupRunsByEntry(const std::vector<RunEntryName>& names);
// The rule above in words, for notes and the README.
constexpr const char* kEntryNameRule =
    "a run's entry is its header's \"entry\"; without one, the name of the folder its file lies in";

// What EvalPoint::epoch counts (the progress axis), as the run's source says: "epochs", "samples", "steps",
// "tokens" or "evaluations" (the evaluation's index, when the log names no progress at all). An importer writes it
// into header[kProgressUnitKey]; readers ask ProgressUnitOf, which says "epochs" when the header names none.
constexpr const char* kProgressUnitKey = "progress_unit";
std::string ProgressUnitOf(const nlohmann::json& header);

}  // namespace evalsuite::runlog
