// The GPU part of the report's cost section: per entry, what its runs' GPUs used, from the nvidia-smi samples each
// run recorded (study/hardware/gpu_sampler.h). A run that was not sampled (no nvidia-smi) says so: its GPU
// use is unknown, never zero. The cost section's entry row gets "gpu" (null when no run of the entry has a GPU record,
// as in stores from before sampling):
//   {"runs_sampled", "runs_not_sampled", "not_sampled_reason", "interval_seconds", "samples", "failed_samples",
//    "devices": [{"index", "uuid", "runs", "samples", "memory_total_mib",
//                 "peak_memory_used_mib",          // the largest of its runs' sampled peaks
//                 "mean_utilization_percent"}],   // the mean of all its samples over the entry's runs
//    "runs": [{"index", "samples", "failed_samples",
//              "devices": [{"index", "samples", "peak_memory_used_mib", "mean_utilization_percent"}]}]}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "reports/report_input.h"
#include "reports/report_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

std::optional<EntryGpuModel> EntryGpu(const analysis::Entry& entry);
nlohmann::json EntryGpuJson(const std::optional<EntryGpuModel>& gpu);

// One row per entry and device; an entry none of whose runs was sampled gets one "not sampled" row. Empty when no
// run of any entry was sampled (then GpuNotSampledLine says why).
ReportTable GpuTable(const CostModel& cost);
// "GPU: not sampled (nvidia-smi not found on PATH)." when entries have GPU records but none was sampled; else "".
std::string GpuNotSampledLine(const CostModel& cost);
inline constexpr const char* kGpuNote =
    "GPU memory used and utilization of each run's own devices (its CUDA_VISIBLE_DEVICES; all GPUs when it had none), "
    "sampled with nvidia-smi --query-gpu every interval while the run ran: peak is the largest sample (a spike "
    "between two samples is missed), the mean is over all samples of the entry's runs. Both are whole-GPU "
    "figures: another process on the same GPU counts too.";

}  // namespace evalsuite::reports
