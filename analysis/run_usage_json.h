// A run's measured usage (wall, user and system seconds, peak RSS) decoded once from the JSON the run store keeps
// under run_execution's "usage"; an absent figure is 0, a figure of another shape an InputError naming it.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/run.h"

namespace evalsuite::analysis {

RunUsage RunUsageFromJson(const nlohmann::json& usage);

}  // namespace evalsuite::analysis
