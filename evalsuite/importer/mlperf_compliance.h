// The MLPerf compliance rules that decide whether a run counts, each failure named with file and line: required
// keys present, run_start before run_stop, a run that logs success reaches the target in some evaluation, seeds
// logged and distinct across a folder's runs, enough result files. Findings that the official compliance
// checker rejects a run for (no run_start or run_stop, stop before start, success without the target) drop the
// run; the others are reported (and are errors under --strict).
#pragma once

#include <string>
#include <vector>

#include "evalsuite/importer/mlperf_rules.h"
#include "evalsuite/runlog/mlperf_log.h"

namespace evalsuite::importer {

struct ComplianceFinding {
  std::string file;
  long line = 0;  // 0 when the fault is a key that is missing
  std::string rule;     // "required_key", "order", "target", "seed", "run_count"
  std::string message;  // what is wrong, for people
  bool drops_run = false;
  std::string Where() const;  // "file:line" or "file"
};

// `rule` may be null (a benchmark the ruleset does not name: no target check).
std::vector<ComplianceFinding> CheckRunCompliance(const runlog::MlperfRun& run, const BenchmarkRule* rule);

// Seeds across a folder's runs: a seed logged by two runs is named at both.
std::vector<ComplianceFinding> CheckSeedsDistinct(const std::vector<const runlog::MlperfRun*>& runs);

}  // namespace evalsuite::importer
