// `evalsuite import`: reads MLPerf result logs, DAWNBench entries and evalsuite JSON Lines run logs (never
// writing where it reads), scores each group by its official rules (MLPerf olympic mean, DAWNBench first row at
// the target), optionally checks MLPerf runs against RCPs, and puts the runs into the run store.
// Units: the store holds seconds everywhere (point train_seconds = seconds since run_start for MLPerf,
// DAWNBench hours * 3600) and metrics as fractions (DAWNBench percent columns / 100); the JSON output speaks
// the benchmarks' own units: minutes for TTA, hours for DAWNBench, thresholds in the column's units.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/mlperf_facts.h"
#include "importer/framework_facts.h"
#include "importer/import_sources.h"
#include "importer/rcp_check.h"
#include "importer/run_identity.h"
#include "runlog/run_log.h"

namespace evalsuite::store {
class RunStore;
}

namespace evalsuite::importer {

constexpr int kImportJsonSchemaVersion = 1;

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

ImportResult Import(const ImportOptions& options);

// {"schema_version": 1, "groups": [{source, format, benchmark, system, runs, converged, tta_minutes,
//  olympic_minutes, cov, [metric, threshold, tta_hours], ...}]}, keys in that order, extras after them.
nlohmann::ordered_json ToJson(const ImportResult& result);

// Human-readable summary, one block per group. Its warning count is every warning the import prints: the
// warnings and, unless `compliance_as_errors` (--strict), the MLPerf compliance findings.
std::string FormatSummary(const ImportResult& result, bool compliance_as_errors = false);

// What the store keeps of a group beside its runs (EntryRecord::extra): its details with source, benchmark, system
// and olympic score; what `evalsuite audit` reads back.
nlohmann::json StoredEntryExtra(const ImportedGroup& group);
// The one read back of what StoredEntryExtra wrote for every format: the group's source (none in an extra that
// holds none, e.g. an entry an older evalsuite stored).
std::optional<std::string> StoredEntrySourceOf(const nlohmann::json& extra);

// Where an import's runs go when the study name is taken.
enum class StudyNameTaken {
  kNewStudy,  // a new study, the name made unique by a " #2", " #3" suffix (an import with no --study)
  kAddTo,     // added to that study (--study names it): its entries kept apart, this import recorded as an invocation
};

// One study of kind "import" holding an entry per group and its runs (or, kAddTo, the study of that name: an import
// study that has none of these entries: a UsageError naming the entry, where it came from and what to do, else);
// returns the study's id. All of it lands in one transaction or nothing does.
int64_t WriteToStore(store::RunStore& store, const ImportResult& result, const std::string& study_name,
                     const nlohmann::json& plan, const nlohmann::json& environment, std::string* final_name = nullptr,
                     StudyNameTaken when_taken = StudyNameTaken::kNewStudy);

}  // namespace evalsuite::importer
