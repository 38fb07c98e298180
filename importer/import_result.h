// What an import was asked (ImportOptions) and what it read and scored (ImportResult: its groups of runs, with
// warnings and errors). The types the importer's parts fill (mlperf_group.h, framework_import.h, group_scoring.h),
// a floor below the import itself and its output (importer.h).
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/mlperf_facts.h"
#include "importer/framework_facts.h"
#include "importer/import_format.h"
#include "importer/rcp_check.h"
#include "importer/run_identity.h"
#include "runlog/run_log.h"

namespace evalsuite::importer {

struct ImportOptions {
  std::vector<std::filesystem::path> paths;
  ImportFormat format = ImportFormat::kAuto;
  // Overrides the target: DAWNBench (column units, e.g. 94 for CIFAR10 top-1 %), JSON Lines (the log's metric)
  // and MLPerf (the stored, higher-is-better metric; TTA becomes the first eval at or above it).
  std::optional<double> threshold;
  // RCP file or folder of rcps_<benchmark>.json; without it the RCPs built in for the folder's ruleset.
  std::optional<std::filesystem::path> rcp;
  RcpPass rcp_pass = RcpPass::kPruned;
  std::string ruleset;  // "5.1.0"; empty = detect per folder (mlperf_group.h)
  unsigned jobs = 0;    // parsing threads; 0 = one per hardware thread
  // Framework logs (framework_import.h): the metric runs are judged on and the entry they are filed under; empty =
  // the stated rules there.
  std::string metric;
  std::string entry;
  // Framework and epoch-CSV logs: how runs are grouped into entries when --entry names none (run_identity.h).
  GroupBy group_by;
  // False: MLPerf compliance findings are reported but drop no run (--compliance report), and the score is labelled
  // as not the official summarizer's; for old rounds whose published tables predate today's rules.
  bool apply_compliance = true;
};

struct ImportedRun {
  std::filesystem::path file;
  runlog::RunLog log;                 // as stored
  std::optional<double> tta_minutes;  // the group's scoring rule; nullopt = did not succeed / reach
  nlohmann::json seeds = nlohmann::json::object();
};

struct ImportedGroup {
  std::string source;  // folder or file relative to the PATH argument's parent
  std::filesystem::path location;
  std::string format;                 // "mlperf", "dawnbench", "jsonl"
  std::string benchmark;              // MLPerf benchmark, DAWNBench task, JSON Lines entry
  std::string system;                 // MLPerf system folder, DAWNBench hardware, JSON Lines folder
  std::string entry;                  // the store's entry name
  std::string time_unit = "seconds";  // the TTA's basis in the store: "seconds", or "epochs"/"steps" (framework logs)
  std::string description;            // the store entry's description; empty = "<format> import of <source>"
  std::vector<ImportedRun> runs;      // natural file-name order
  std::size_t converged = 0;
  std::optional<double> olympic_minutes;
  std::optional<double> cov;
  // The stored target (higher is better, stored units) and the metric's name.
  std::string metric;
  std::optional<double> threshold;         // in the JSON's units (DAWNBench column units)
  std::optional<double> stored_threshold;  // in the store's units (fractions)
  std::optional<double> tta_hours;         // DAWNBench
  // DAWNBench author/model/hardware/framework/cost; framework logs' metric, evaluations and TTA; for an MLPerf
  // group, `mlperf` encoded by analysis::MlperfFactsToJson (what --json and the store write).
  nlohmann::json details = nlohmann::json::object();
  // An MLPerf group's facts (mlperf_group.h) or a framework group's (framework_import.h), which the summary reads;
  // `details` is their encoding.
  std::optional<analysis::MlperfFacts> mlperf;
  std::optional<FrameworkFacts> framework;
};

struct ImportResult {
  std::vector<ImportedGroup> groups;
  std::vector<std::string> warnings;    // "file:line: why" (lines skipped, facts missing)
  std::vector<std::string> errors;      // "file: why" (files that could not be read; the rest was imported)
  std::vector<std::string> compliance;  // "file:line: why": MLPerf rules broken (errors under --strict)
  std::vector<std::string> notes;       // how options were read (a --threshold converted to the file's scale)
  // Which runs were filed under which entry and why (run_identity.h's FormatEntryGrouping), printed before storing.
  std::string grouping;
  std::vector<std::filesystem::path> roots;  // canonical PATH arguments: nothing may be written below them
  std::size_t files = 0;
  // Errors from the frameworks' logs (framework_import.h) and run logs whose every evaluation is off the declared
  // scale: runs that could not be read. An import with any stores nothing (no verdict from unreadable runs).
  std::size_t framework_errors = 0;
  std::size_t bytes = 0;
  double seconds = 0;  // wall time of reading and scoring
};

}  // namespace evalsuite::importer
