#include "reports/gpu_use.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/json_access.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

using json = nlohmann::json;

json Number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

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

std::string Cell(const json& value, int decimals) {
  if (!value.is_number()) return kMissing;
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value.get<double>());
  return text;
}

int Count(const json& value) { return static_cast<int>(NumberOf(value).value_or(0)); }

// The sampling interval as the plan gave it: "1", "0.05".
std::string Interval(const json& gpu) {
  const json& seconds = Field(gpu, "interval_seconds");
  if (!seconds.is_number()) return kMissing;
  char text[32];
  std::snprintf(text, sizeof(text), "%g", seconds.get<double>());
  return text;
}

}  // namespace

json EntryGpuJson(const analysis::Entry& entry) {
  int sampled = 0, not_sampled = 0, samples = 0, failed = 0;
  std::string reason;
  double interval = 0;
  std::map<std::string, DeviceTotals, decltype(&IndexBefore)> devices(&IndexBefore);
  json runs = json::array();
  for (const analysis::Run& run : entry.runs) {
    if (!run.gpu) continue;
    const analysis::RunGpuUse& gpu = *run.gpu;
    if (!gpu.sampled) {
      ++not_sampled;
      if (reason.empty()) reason = gpu.reason;
      continue;
    }
    ++sampled;
    samples += gpu.samples;
    failed += gpu.failed_samples;
    if (interval == 0) interval = gpu.interval_seconds;
    json run_devices = json::array();
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
      run_devices.push_back({{"index", d.index},
                             {"samples", d.samples},
                             {"peak_memory_used_mib", Number(d.peak_memory_used_mib)},
                             {"mean_utilization_percent", Number(d.mean_utilization_percent)}});
    }
    runs.push_back({{"index", run.index},
                    {"samples", gpu.samples},
                    {"failed_samples", gpu.failed_samples},
                    {"devices", run_devices}});
  }
  if (sampled + not_sampled == 0) return nullptr;
  json device_rows = json::array();
  for (const auto& [index, t] : devices) {
    device_rows.push_back(
        {{"index", index},
         {"uuid", t.uuid},
         {"runs", t.runs},
         {"samples", t.samples},
         {"memory_total_mib", Number(t.memory_total_mib)},
         {"peak_memory_used_mib", Number(t.peak_memory_used_mib)},
         {"mean_utilization_percent",
          t.utilization_samples > 0 ? json(t.utilization_sum / t.utilization_samples) : json(nullptr)}});
  }
  return {{"runs_sampled", sampled},
          {"runs_not_sampled", not_sampled},
          {"not_sampled_reason", reason.empty() ? json(nullptr) : json(reason)},
          {"interval_seconds", sampled > 0 ? json(interval) : json(nullptr)},
          {"samples", samples},
          {"failed_samples", failed},
          {"devices", device_rows},
          {"runs", runs}};
}

ReportTable GpuTable(const json& cost) {
  ReportTable table;
  table.header = {"entry", "GPU", "runs on it", "samples", "every (s)", "peak memory (MiB)", "of total (MiB)",
                  "mean utilization (%)"};
  table.numeric = {false, false, true, true, true, true, true, true};
  bool any_sampled = false;
  for (const json& row : ArrayOf(Field(cost, "entries"))) {
    const json& gpu = Field(row, "gpu");
    if (gpu.is_object() && Count(Field(gpu, "runs_sampled")) > 0) any_sampled = true;
  }
  if (!any_sampled) return table;
  for (const json& row : ArrayOf(Field(cost, "entries"))) {
    const json& gpu = Field(row, "gpu");
    if (!gpu.is_object()) continue;
    const std::string entry = StringOf(Field(row, "entry"));
    const int sampled = Count(Field(gpu, "runs_sampled"));
    const int total = sampled + Count(Field(gpu, "runs_not_sampled"));
    const std::string runs = std::to_string(sampled) + " of " + std::to_string(total);
    if (sampled == 0) {
      const json& reason = Field(gpu, "not_sampled_reason");
      table.rows.push_back({entry, "not sampled" + (reason.is_string() ? " (" + reason.get<std::string>() + ")" : ""),
                            runs, kMissing, kMissing, kMissing, kMissing, kMissing});
      continue;
    }
    if (ArrayOf(Field(gpu, "devices")).empty()) {
      table.rows.push_back({entry, "no sample answered", runs, "0", Interval(gpu),
                            kMissing, kMissing, kMissing});
      continue;
    }
    for (const json& d : ArrayOf(Field(gpu, "devices"))) {
      const std::string on_it = std::to_string(Count(Field(d, "runs"))) + " of " + std::to_string(total);
      table.rows.push_back({entry, StringOf(Field(d, "index")) + " " + StringOf(Field(d, "uuid")), on_it,
                            std::to_string(Count(Field(d, "samples"))), Interval(gpu),
                            Cell(Field(d, "peak_memory_used_mib"), 0),
                            Cell(Field(d, "memory_total_mib"), 0), Cell(Field(d, "mean_utilization_percent"), 1)});
    }
  }
  return table;
}

std::string GpuNotSampledLine(const json& cost) {
  std::string reason;
  bool any = false;
  for (const json& row : ArrayOf(Field(cost, "entries"))) {
    const json& gpu = Field(row, "gpu");
    if (!gpu.is_object()) continue;
    if (Count(Field(gpu, "runs_sampled")) > 0) return "";
    any = true;
    if (reason.empty() && Field(gpu, "not_sampled_reason").is_string()) reason = gpu["not_sampled_reason"];
  }
  if (!any) return "";
  return "GPU: not sampled" + (reason.empty() ? std::string() : " (" + reason + ")") + ".";
}

}  // namespace evalsuite::reports
