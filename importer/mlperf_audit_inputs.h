// What `evalsuite audit` reads of imported MLPerf submissions: from each stored entry's import details (ruleset,
// division, batch size, runs with their time and convergence point, official score, RCP file) and the RCP file the
// import checked with, the audit's plain inputs (analysis/mlperf_audit.h): the reference runs at the submission's
// batch size, chosen as the official checker chooses its reference (exact, interpolated, or none), and, where none
// applies, the reason, so the audit falls back to the submission's own runs and says why.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/mlperf_audit.h"
#include "analysis/mlperf_facts.h"
#include "importer/rcp_check.h"

namespace evalsuite::importer {

// Reads RCP files once per audit; a file that cannot be read is remembered with its error.
class AuditRcpFiles {
 public:
  // `rcp_file` as the import recorded it: "built-in training_<ruleset>/rcps_<benchmark>.json" or a path. Throws
  // Error (IoError, InputError) naming the file when it cannot be read or is not an RCP file.
  const std::vector<RcpRecord>& Records(const std::string& rcp_file);

 private:
  std::map<std::string, std::vector<RcpRecord>> records_;
  std::map<std::string, std::string> errors_;
};

// One MLPerf entry's stored facts (EntryRecord::extra decoded by analysis::MlperfFactsFromJson, with source,
// benchmark and system) as an audit input.
analysis::AuditInput AuditInputOf(const analysis::MlperfFacts& facts, AuditRcpFiles& rcp_files);
// The same from the stored extra, decoded once here.
analysis::AuditInput AuditInputOf(const nlohmann::json& extra, AuditRcpFiles& rcp_files);

// The reference runs at `batch_size` from an RCP file's records, as the checker picks its reference: the record at
// that batch size, else the interpolation between the pruned neighbours, where each neighbour's runs are moved to
// the interpolated mean and spread ((x - mean) / stdev, then x' = mean' + stdev' z); nullopt with `why` otherwise.
std::optional<analysis::RerunReference> ReferenceAtBatch(const std::vector<RcpRecord>& records,
                                                         const BenchmarkRule& rule, const std::string& ruleset,
                                                         double batch_size, RcpPass pass, std::string& why);

}  // namespace evalsuite::importer
