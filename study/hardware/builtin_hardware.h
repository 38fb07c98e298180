// The hardware view of a built-in entry from its own study runs: each `evalsuite train` log's end record carries a
// "hardware" block (training/step_accounting.h), kept by the store; the entry's figures are its median
// run's by achieved FLOP/s (a real run, with its phases, time and memory breakdowns), rated in the report against
// the study's recorded ceilings (reports/hardware_ceilings.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace evalsuite::study {

// A section entry (reports/hardware_section.h) with "figures_source" and "runs" [{index, samples_per_second,
// achieved_flops}]; nullopt when no finished run of `runs` has a hardware block.
std::optional<nlohmann::json> BuiltinHardwareEntry(const std::string& entry, const std::vector<store::RunRecord>& runs);

}  // namespace evalsuite::study
