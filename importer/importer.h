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

#include "importer/import_result.h"

namespace evalsuite::store {
class RunStore;
}

namespace evalsuite::importer {

constexpr int kImportJsonSchemaVersion = 1;

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
