// `evalsuite audit`'s output: the audit (analysis/mlperf_audit.h) as plain text for a terminal and as JSON, the same
// figures in both, each with the method that gave it. Decides nothing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/mlperf_audit.h"

namespace evalsuite::reports {

std::string AuditText(const analysis::AuditReport& report);
// {"schema_version": 1, "method": {...}, "groups": [{ruleset, benchmark, division, submissions: [...], pairs: [...],
// notes}]}
nlohmann::ordered_json AuditJson(const analysis::AuditReport& report);

}  // namespace evalsuite::reports
