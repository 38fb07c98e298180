#include "reports/cost_section.h"

#include <algorithm>

#include "reports/gpu_use.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

using json = nlohmann::json;

json Money(double hours, const json& price) {
  if (!price.is_number()) return nullptr;
  return hours * price.get<double>();
}

const json& Path(const json& object, std::initializer_list<const char*> keys) {
  static const json kNull = nullptr;
  const json* at = &object;
  for (const char* key : keys) {
    if (!at->is_object() || !at->contains(key)) return kNull;
    at = &(*at)[key];
  }
  return *at;
}

}  // namespace

json CostSectionJson(const StabilityReportInput& input, const json& entries_model) {
  const json price = input.plan.is_object() && input.plan.contains("cost_per_hour") ? input.plan["cost_per_hour"]
                                                                                     : json(nullptr);
  json entries = json::array();
  bool any = false;
  for (std::size_t i = 0; i < input.entries.size(); ++i) {
    const analysis::Entry& entry = input.entries[i];
    int measured = 0;
    double wall = 0, cpu = 0;
    long rss = 0;
    for (const analysis::Run& run : entry.runs) {
      if (!run.usage) continue;
      ++measured;
      wall += run.usage->wall_seconds;
      cpu += run.usage->user_seconds + run.usage->system_seconds;
      rss = std::max(rss, run.usage->max_rss_kb);
    }
    if (measured == 0) continue;
    any = true;
    json row = {{"entry", entry.name},
                {"runs_measured", measured},
                {"wall_seconds_total", wall},
                {"wall_seconds_per_run", wall / measured},
                {"cpu_seconds_total", cpu},
                {"cpu_seconds_per_run", cpu / measured},
                {"peak_rss_mb", static_cast<double>(rss) / 1024.0},
                {"cost_total", Money(wall / 3600.0, price)},
                {"cost_to_target", nullptr},
                {"cost_per_success", nullptr},
                {"gpu", EntryGpuJson(entry)}};
    const json& stats = i < entries_model.size() ? Path(entries_model[i], {"stats"}) : json(nullptr);
    if (entry.time_unit == "seconds") {
      const json& median = Path(stats, {"tta_summary", "median"});
      if (median.is_number()) row["cost_to_target"] = Money(median.get<double>() / 3600.0, price);
      const json& ert = Path(stats, {"ert"});
      if (ert.is_number()) row["cost_per_success"] = Money(ert.get<double>() / 3600.0, price);
    }
    entries.push_back(std::move(row));
  }
  if (!any) return nullptr;
  return {{"cost_per_hour", price}, {"entries", entries}};
}

ReportTable CostTable(const json& cost) {
  ReportTable table;
  table.header = {"entry", "runs measured", "wall total (s)", "wall per run (s)", "CPU total (s)", "CPU per run (s)",
                  "peak RSS (MB)", "cost of all runs", "cost to target", "cost per success"};
  table.numeric = {false, true, true, true, true, true, true, true, true, true};
  auto money = [](const json& value) {
    return value.is_number() ? FormatMagnitude(value) : std::string(kMissing);
  };
  for (const json& row : Path(cost, {"entries"})) {
    table.rows.push_back({row.value("entry", ""), std::to_string(row.value("runs_measured", 0)),
                          FormatMagnitude(row["wall_seconds_total"]), FormatMagnitude(row["wall_seconds_per_run"]),
                          FormatMagnitude(row["cpu_seconds_total"]), FormatMagnitude(row["cpu_seconds_per_run"]),
                          FormatMagnitude(row["peak_rss_mb"]), money(row["cost_total"]), money(row["cost_to_target"]),
                          money(row["cost_per_success"])});
  }
  return table;
}

}  // namespace evalsuite::reports
