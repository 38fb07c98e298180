#include "analysis/run_usage_json.h"

#include <string>

#include "common/error.h"

namespace evalsuite::analysis {
namespace {

// The field when it is a number; absent is the fallback (older stores wrote fewer figures).
template <typename T>
T UsageFigureIn(const nlohmann::json& usage, const char* key, T fallback) {
  if (!usage.contains(key)) return fallback;
  const nlohmann::json& value = usage[key];
  if (!value.is_number()) throw InputError(std::string("usage.") + key, "must be a number, not " + value.dump());
  return value.get<T>();
}

}  // namespace

RunUsage RunUsageFromJson(const nlohmann::json& usage) {
  RunUsage used;
  if (!usage.is_object()) return used;
  used.wall_seconds = UsageFigureIn(usage, "wall_seconds", 0.0);
  used.user_seconds = UsageFigureIn(usage, "user_seconds", 0.0);
  used.system_seconds = UsageFigureIn(usage, "system_seconds", 0.0);
  used.max_rss_kb = UsageFigureIn(usage, "max_rss_kb", 0L);
  return used;
}

}  // namespace evalsuite::analysis
