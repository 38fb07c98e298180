// The MLPerf compliance rules that decide whether a run counts, each failure named with file and line. A run is
// dropped only for what the official tools drop it for: a record the official parser cannot read, a required key
// missing or logged twice with different values, no record of the target key reaching the target, init over its
// time limit, a division with no rules, no run_start or run_stop (mlperf_compliance_table.h holds the per-ruleset
// facts). evalsuite's own checks (a success that reaches no target by evalsuite's table, seeds logged and
// distinct, enough result files) are reported and never change the score; --strict makes them errors.
#pragma once

#include <string>
#include <vector>

#include "importer/mlperf_compliance_table.h"
#include "importer/mlperf_rules.h"
#include "runlog/mlperf_log.h"

namespace evalsuite::importer {

struct ComplianceFinding {
  std::string file;
  long line = 0;  // 0 when the fault is a key that is missing
  // "parse_error", "required_key", "target", "init_time", "division", "order" (official); "seed", "run_count",
  // "evalsuite_target" (evalsuite's own)
  std::string rule;
  std::string message;  // what is wrong, for people
  bool drops_run = false;
  std::string Where() const;  // "file:line" or "file"
};

// `rule` may be null (a benchmark the ruleset does not name); `official` null where the package has no compliance
// rules for the ruleset and benchmark (0.5.0, an unknown benchmark): then only the summarizer's own checks apply.
std::vector<ComplianceFinding> CheckRunCompliance(const runlog::MlperfRun& run, const BenchmarkRule* rule,
                                                  const ComplianceRules* official);

// Seeds across a folder's runs: a seed logged by two runs is named at both.
std::vector<ComplianceFinding> CheckSeedsDistinct(const std::vector<const runlog::MlperfRun*>& runs);

}  // namespace evalsuite::importer
