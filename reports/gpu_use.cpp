#include "reports/gpu_use.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

using json = nlohmann::json;

// Device figures summed over runs: the peak of peaks and the sample-weighted mean.
struct DeviceTotals {
  std::string uuid;
  int runs = 0;
  int samples = 0;
  std::optional<double> memory_total_mib;
  std::optional<double> peak_memory_used_mib;
  double utilization_sum = 0;
  int utilization_samples = 0;
};

bool IndexBefore(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

std::string Cell(const std::optional<double>& value, int decimals) {
  if (!value) return kMissing;
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, *value);
  return text;
}

// The sampling interval as the plan gave it: "1", "0.05".
std::string Interval(const EntryGpuModel& gpu) {
  if (!gpu.interval_seconds) return kMissing;
  char text[32];
  std::snprintf(text, sizeof(text), "%g", *gpu.interval_seconds);
  return text;
}

}  // namespace

std::optional<EntryGpuModel> EntryGpu(const analysis::Entry& entry) {
  EntryGpuModel out;
  double interval = 0;
  std::map<std::string, DeviceTotals, decltype(&IndexBefore)> devices(&IndexBefore);
  for (const analysis::Run& run : entry.runs) {
    if (!run.gpu) continue;
    const analysis::RunGpuUse& gpu = *run.gpu;
    if (!gpu.sampled) {
      ++out.runs_not_sampled;
      if (out.not_sampled_reason.empty()) out.not_sampled_reason = gpu.reason;
      continue;
    }
    ++out.runs_sampled;
    out.samples += gpu.samples;
    out.failed_samples += gpu.failed_samples;
    if (interval == 0) interval = gpu.interval_seconds;
    GpuRunModel run_row{run.index, gpu.samples, gpu.failed_samples, {}};
    for (const analysis::GpuDeviceUse& d : gpu.devices) {
      DeviceTotals& totals = devices[d.index];
      totals.uuid = d.uuid;
      ++totals.runs;
      totals.samples += d.samples;
      if (d.memory_total_mib) totals.memory_total_mib = d.memory_total_mib;
      if (d.peak_memory_used_mib) {
        totals.peak_memory_used_mib = std::max(totals.peak_memory_used_mib.value_or(0), *d.peak_memory_used_mib);
      }
      if (d.mean_utilization_percent && d.utilization_samples > 0) {
        totals.utilization_sum += *d.mean_utilization_percent * d.utilization_samples;
        totals.utilization_samples += d.utilization_samples;
      }
      run_row.devices.push_back({d.index, d.samples, d.peak_memory_used_mib, d.mean_utilization_percent});
    }
    out.runs.push_back(std::move(run_row));
  }
  if (out.runs_sampled + out.runs_not_sampled == 0) return std::nullopt;
  if (out.runs_sampled > 0) out.interval_seconds = interval;
  for (const auto& [index, t] : devices) {
    GpuDeviceTotalsModel row{index, t.uuid, t.runs, t.samples, t.memory_total_mib, t.peak_memory_used_mib, {}};
    if (t.utilization_samples > 0) row.mean_utilization_percent = t.utilization_sum / t.utilization_samples;
    out.devices.push_back(std::move(row));
  }
  return out;
}

json EntryGpuJson(const std::optional<EntryGpuModel>& gpu) {
  if (!gpu) return nullptr;
  json runs = json::array();
  for (const GpuRunModel& run : gpu->runs) {
    json run_devices = json::array();
    for (const GpuRunDeviceModel& d : run.devices) {
      run_devices.push_back({{"index", d.index},
                             {"samples", d.samples},
                             {"peak_memory_used_mib", JsonOrNull(d.peak_memory_used_mib)},
                             {"mean_utilization_percent", JsonOrNull(d.mean_utilization_percent)}});
    }
    runs.push_back({{"index", run.index},
                    {"samples", run.samples},
                    {"failed_samples", run.failed_samples},
                    {"devices", run_devices}});
  }
  json device_rows = json::array();
  for (const GpuDeviceTotalsModel& t : gpu->devices) {
    device_rows.push_back({{"index", t.index},
                           {"uuid", t.uuid},
                           {"runs", t.runs},
                           {"samples", t.samples},
                           {"memory_total_mib", JsonOrNull(t.memory_total_mib)},
                           {"peak_memory_used_mib", JsonOrNull(t.peak_memory_used_mib)},
                           {"mean_utilization_percent", JsonOrNull(t.mean_utilization_percent)}});
  }
  return {{"runs_sampled", gpu->runs_sampled},
          {"runs_not_sampled", gpu->runs_not_sampled},
          {"not_sampled_reason", gpu->not_sampled_reason.empty() ? json(nullptr) : json(gpu->not_sampled_reason)},
          {"interval_seconds", JsonOrNull(gpu->interval_seconds)},
          {"samples", gpu->samples},
          {"failed_samples", gpu->failed_samples},
          {"devices", device_rows},
          {"runs", runs}};
}

ReportTable GpuTable(const CostModel& cost) {
  ReportTable table;
  table.header = {"entry",          "GPU",
                  "runs on it",     "samples",
                  "every (s)",      "peak memory (MiB)",
                  "of total (MiB)", "mean utilization (%)"};
  table.numeric = {false, false, true, true, true, true, true, true};
  const bool any_sampled = std::any_of(cost.entries.begin(), cost.entries.end(),
                                       [](const CostEntryModel& row) { return row.gpu && row.gpu->runs_sampled > 0; });
  if (!any_sampled) return table;
  for (const CostEntryModel& row : cost.entries) {
    if (!row.gpu) continue;
    const EntryGpuModel& gpu = *row.gpu;
    const std::string& entry = row.entry;
    const int sampled = gpu.runs_sampled;
    const int total = sampled + gpu.runs_not_sampled;
    const std::string runs = std::to_string(sampled) + " of " + std::to_string(total);
    if (sampled == 0) {
      const std::string& reason = gpu.not_sampled_reason;
      table.rows.push_back({entry, "not sampled" + (reason.empty() ? "" : " (" + reason + ")"), runs, kMissing,
                            kMissing, kMissing, kMissing, kMissing});
      continue;
    }
    if (gpu.devices.empty()) {
      table.rows.push_back({entry, "no sample answered", runs, "0", Interval(gpu), kMissing, kMissing, kMissing});
      continue;
    }
    for (const GpuDeviceTotalsModel& d : gpu.devices) {
      const std::string on_it = std::to_string(d.runs) + " of " + std::to_string(total);
      table.rows.push_back({entry, d.index + " " + d.uuid, on_it, std::to_string(d.samples), Interval(gpu),
                            Cell(d.peak_memory_used_mib, 0), Cell(d.memory_total_mib, 0),
                            Cell(d.mean_utilization_percent, 1)});
    }
  }
  return table;
}

std::string GpuNotSampledLine(const CostModel& cost) {
  std::string reason;
  bool any = false;
  for (const CostEntryModel& row : cost.entries) {
    if (!row.gpu) continue;
    if (row.gpu->runs_sampled > 0) return "";
    any = true;
    if (reason.empty()) reason = row.gpu->not_sampled_reason;
  }
  if (!any) return "";
  return "GPU: not sampled" + (reason.empty() ? std::string() : " (" + reason + ")") + ".";
}

}  // namespace evalsuite::reports
