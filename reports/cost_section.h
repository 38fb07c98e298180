// The "cost" section of the report model: what each entry's runs used and what they cost (DAWNBench's cost metric:
// time to reach the target times the machine's price per hour, from the plan's `cost_per_hour`). Built from the
// per-run usage the study measured (wait4 rusage of each run's process tree, or a Slurm task's end record); absent
// (null) when no run of any entry has it. Shape:
//   "cost": {"cost_per_hour": 3.06 | null,
//            "entries": [{"entry", "runs_measured", "wall_seconds_total", "wall_seconds_per_run",
//                         "cpu_seconds_total", "cpu_seconds_per_run", "peak_rss_mb",
//                         "cost_total",            // all measured runs' wall hours x price
//                         "cost_to_target",        // median TTA (seconds) / 3600 x price (DAWNBench)
//                         "cost_per_success",      // ERT / 3600 x price: counts the runs that missed
//                         "gpu"}]}                 // nvidia-smi samples per device, or not sampled (gpu_use.h)
// Money figures are null without cost_per_hour, and cost_to_target/cost_per_success without a TTA in seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "reports/report_input.h"
#include "reports/report_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

constexpr const char* kCostSectionKey = "cost";

// `entries_model`: the model's entries (for each entry's median TTA and ERT), in the input's order. None when no run
// of any entry has its usage measured.
std::optional<CostModel> CostSection(const StabilityReportInput& input, const std::vector<EntryModel>& entries_model);
nlohmann::json CostSectionJson(const CostModel& cost);

ReportTable CostTable(const CostModel& cost);
inline constexpr const char* kCostNote =
    "Wall and CPU time (user + system) of each run's whole process tree, measured by the study (wait4 of the run's "
    "supervisor; on Slurm the task's own record); peak RSS is the largest single process of a run. Cost to target "
    "is DAWNBench's: the median time to target times the price per hour (plan key cost_per_hour); cost per success "
    "uses the expected running time instead, so runs that missed the target are paid for too.";

}  // namespace evalsuite::reports
