// The "hardware" section of the report model: why TTA is what it is. Produced by `evalsuite machine --entries`
// (training/hardware_profile.h) and placed with `evalsuite report --section hardware=FILE`; rendered
// here as tables, one sentence per entry naming its bound, and a roofline chart (Williams et al. 2009) with every
// entry and every progressive-resize stage as a point. Shape:
//
// "hardware": {
//   "machine": {"cpu_model", "cores", "threads", "peak_fp32_flops", "peak_bf16_flops", "bandwidth_bytes",
//               "ridge_fp32", "theoretical": {"derived", "fp32_flops_per_second", "derivation"},
//               "probes": [{"name", "shape", "unit", "best", "median"}],
//               "ceilings_source": {"kind", "where"} (reports/hardware_ceilings.h)},
//   "entries": [{"entry", "precision", "batch_size", "flops_per_sample", "bytes_per_sample", "intensity",
//                "samples_per_second", "achieved_flops", "mfu", "peak_flops", "bound", "evidence",
//                "phases": [{"side", "flops_per_sample", "intensity", "samples_per_second", "achieved_flops", "mfu"}],
//                "time": {"data", "forward", "backward", "optimizer", "evaluation", "idle", "wall"} (seconds),
//                "full_run_estimate": {"train_seconds", "evaluation_seconds", "evaluation_share"},
//                "memory": {"parameters", "gradients", "optimizer_state", "activations", "temporaries",
//                           "input_batch", "dataset", "steady", "peak", "peak_rss"} (bytes)}]
// }
// Entries with "source": "external" (study/hardware/external_hardware.h, from the store's run-log headers)
// have no phases, time or memory, and carry their own device: "device", "device_count", "peak_bandwidth",
// "peak_source", "bandwidth_source", "runs"; a section of such entries alone has no "machine".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reports/hardware_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

constexpr const char* kHardwareSectionKey = "hardware";
// Shown instead of the per-entry tables when a study recorded its ceilings but no entry was profiled.
constexpr const char* kNoHardwareEntries =
    "No entry profiled against these ceilings: `evalsuite machine --entries all --json F`, then `evalsuite report "
    "... --section hardware=F` (the entries' MFU is then computed against this study's ceilings).";

bool HasHardwareSection(const nlohmann::json& section);
// The one place a hardware section's JSON is read for rendering (a section HasHardwareSection accepts).
HardwareSectionModel ParseHardwareSection(const nlohmann::json& section);
ReportTable HardwareMachineTable(const HardwareSectionModel& section);
// One row per entry and phase (a progressive-resize stage is its own row).
ReportTable HardwareEntriesTable(const HardwareSectionModel& section);
ReportTable HardwareTimeTable(const HardwareSectionModel& section);
ReportTable HardwareMemoryTable(const HardwareSectionModel& section);
// "baseline is overhead-bound: intensity ... (MFU 4.1%; 62% of its step is forward+backward, ...)" per entry.
std::vector<std::string> HardwareBottleneckSentences(const HardwareSectionModel& section);
// Log-log roofline: the memory slope and compute roof(s), one dot per entry phase (data-chart="roofline").
std::string RooflineChart(const HardwareSectionModel& section);

}  // namespace evalsuite::reports
