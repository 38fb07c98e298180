// What the official MLPerf compliance checker requires of one result file, per training ruleset and benchmark, as
// data generated from the official package's compliance YAMLs (mlperf_compliance_table.inc): the key whose
// ATLEAST_ONE_CHECK is the quality target and its bounds per division, the keys each division requires with their
// REQ, and the init time limit. mlperf_compliance_table_test compares it with the package's files.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evalsuite::importer {

// One comparison of the target check: value[field] op bound ("" = the value itself).
struct TargetBound {
  std::string field;
  std::string op;  // ">=", ">", "<=", "<"
  double value = 0;
};

// "Some record of `key` passes all bounds" (eval_accuracy; aggregated_eval_accuracy for stable diffusion).
struct TargetCheck {
  std::string key;
  std::vector<TargetBound> bounds;
  // bert 0.7.0: value >= small_batch_min when global_batch_size < batch_limit, else >= large_batch_min.
  std::optional<double> batch_limit, small_batch_min, large_batch_min;
  bool empty() const { return bounds.empty() && !batch_limit; }
  // True when `value` passes; `global_batch_size` is the log's (bert 0.7.0 only).
  bool Passes(const nlohmann::json& value, std::optional<double> global_batch_size) const;
  std::string ToString() const;  // "eval_accuracy >= 0.759 and < 1"
};

// REQ of a key: EXACTLY_ONE, AT_LEAST_ONE, AT_LEAST(n), AT_LEAST_ONE_OR(other, ...), OPTIONAL.
struct RequiredKey {
  std::string key;
  std::string req;
};

struct DivisionRules {
  TargetCheck target;
  std::vector<RequiredKey> required;
  int init_limit_minutes = 0;  // init_stop - first init_start must be below this; 0 = no limit
  // The tensors weights_initialization must name, exactly (as sorted lists; duplicates count), where an END check
  // of the ruleset says so (1.0.0 rnnt, 1.1.0 ... 2.1.0); empty = no such check. Each record must name its tensor.
  std::vector<std::string> tensors;
  // A key whose logged value picks one more rules file (resnet's opt_name: closed_resnet_lars.yaml), and the keys
  // each such file requires; a value with no file is rejected by the checker.
  std::string variant_key;
  std::map<std::string, std::vector<RequiredKey>> variants;
};

struct ComplianceRules {
  std::string ruleset;
  std::string benchmark;
  DivisionRules closed, open;
  // The rules of a division as the log names it (the checker follows the log's submission_division); nullptr for
  // any other name (the official checker then finds no <division>_common.yaml and rejects the run).
  const DivisionRules* For(std::string_view division) const;
};

const std::vector<ComplianceRules>& AllComplianceRules();
const ComplianceRules* FindComplianceRules(std::string_view ruleset, std::string_view benchmark);

}  // namespace evalsuite::importer
