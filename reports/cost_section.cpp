#include "reports/cost_section.h"

#include <algorithm>
#include <cmath>

#include "common/json_access.h"
#include "reports/gpu_use.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

using json = nlohmann::json;

std::optional<double> Money(double hours, std::optional<double> price) {
  if (!price) return std::nullopt;
  return hours * *price;
}

}  // namespace

std::optional<CostModel> CostSection(const StabilityReportInput& input, const std::vector<EntryModel>& entries_model) {
  CostModel cost;
  cost.cost_per_hour = input.cost_per_hour;
  const std::optional<double> price = cost.cost_per_hour;
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
    CostEntryModel row;
    row.entry = entry.name;
    row.runs_measured = measured;
    row.wall_seconds_total = wall;
    row.wall_seconds_per_run = wall / measured;
    row.cpu_seconds_total = cpu;
    row.cpu_seconds_per_run = cpu / measured;
    row.peak_rss_mb = static_cast<double>(rss) / 1024.0;
    row.cost_total = Money(wall / 3600.0, price);
    row.gpu = EntryGpu(entry);
    if (entry.time_unit == "seconds" && i < entries_model.size()) {
      const stats::StabilityStats& stats = entries_model[i].stats;
      if (std::isfinite(stats.tta_summary.median)) row.cost_to_target = Money(stats.tta_summary.median / 3600.0, price);
      if (stats.ert && std::isfinite(*stats.ert)) row.cost_per_success = Money(*stats.ert / 3600.0, price);
    }
    cost.entries.push_back(std::move(row));
  }
  if (cost.entries.empty()) return std::nullopt;
  return cost;
}

json CostSectionJson(const CostModel& cost) {
  json entries = json::array();
  for (const CostEntryModel& row : cost.entries) {
    entries.push_back({{"entry", row.entry},
                       {"runs_measured", row.runs_measured},
                       {"wall_seconds_total", row.wall_seconds_total},
                       {"wall_seconds_per_run", row.wall_seconds_per_run},
                       {"cpu_seconds_total", row.cpu_seconds_total},
                       {"cpu_seconds_per_run", row.cpu_seconds_per_run},
                       {"peak_rss_mb", row.peak_rss_mb},
                       {"cost_total", JsonOrNull(row.cost_total)},
                       {"cost_to_target", JsonOrNull(row.cost_to_target)},
                       {"cost_per_success", JsonOrNull(row.cost_per_success)},
                       {"gpu", EntryGpuJson(row.gpu)}});
  }
  return {{"cost_per_hour", JsonOrNull(cost.cost_per_hour)}, {"entries", entries}};
}

ReportTable CostTable(const CostModel& cost) {
  ReportTable table;
  table.header = {"entry",           "runs measured", "wall total (s)",   "wall per run (s)", "CPU total (s)",
                  "CPU per run (s)", "peak RSS (MB)", "cost of all runs", "cost to target",   "cost per success"};
  table.numeric = {false, true, true, true, true, true, true, true, true, true};
  for (const CostEntryModel& row : cost.entries) {
    table.rows.push_back({row.entry, std::to_string(row.runs_measured), FormatMagnitude(row.wall_seconds_total),
                          FormatMagnitude(row.wall_seconds_per_run), FormatMagnitude(row.cpu_seconds_total),
                          FormatMagnitude(row.cpu_seconds_per_run), FormatMagnitude(row.peak_rss_mb),
                          FormatMagnitude(row.cost_total), FormatMagnitude(row.cost_to_target),
                          FormatMagnitude(row.cost_per_success)});
  }
  return table;
}

}  // namespace evalsuite::reports
