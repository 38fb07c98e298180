#include "analysis/run_usage_json.h"

#include <string>

#include "common/json_fields.h"

namespace evalsuite::analysis {

RunUsage RunUsageFromJson(const nlohmann::json& usage) {
  RunUsage used;
  if (!usage.is_object()) return used;
  used.wall_seconds = OptionalNumber(usage, "wall_seconds", "usage").value_or(0.0);
  used.user_seconds = OptionalNumber(usage, "user_seconds", "usage").value_or(0.0);
  used.system_seconds = OptionalNumber(usage, "system_seconds", "usage").value_or(0.0);
  used.max_rss_kb = OptionalInteger(usage, "max_rss_kb", "usage").value_or(0);
  return used;
}

}  // namespace evalsuite::analysis
