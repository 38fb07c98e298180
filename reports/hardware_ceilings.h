// Which machine ceilings the report's hardware section divides by, and the figures that follow from them. A study
// records its ceilings once in its environment (study/plans/ceilings_record.h, key "machine_ceilings"); they
// win over the machine of a `--section hardware=FILE`, whose entries' MFU, attainable FLOP/s and bound are then
// computed again against them. The section's "machine" says where its figures come from ("ceilings_source":
// measured in this study, a file, the --section file's own measurement, or the CPU's theoretical peak).
// External entries (study/hardware/external_hardware.h) keep their own device's figures. A store without
// recorded ceilings gets the section as it was given (or none).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite::reports {

// `entry` (an object of the section's "entries", or a run's hardware record with "precision", "intensity",
// "achieved_flops" and "phases") with "peak_flops", "mfu", "bound", "attainable_flops" and "evidence" set from
// `machine` ("peak_fp32_flops", "peak_bf16_flops", "bandwidth_bytes"), for the whole and for each phase.
nlohmann::json RateAgainstCeilings(nlohmann::json entry, const nlohmann::json& machine);

// A section entry from a run's "hardware" record (training/step_accounting.h), before rating: FLOPs and
// bytes per sample, intensity, samples/s, achieved FLOP/s, phases, time and memory breakdowns.
nlohmann::json EntryFromHardwareRecord(const std::string& entry, int batch_size, int epochs,
                                       const nlohmann::json& hardware);

// The hardware section to show, from the one given (null when none) and the study's recorded environment; null when
// there is none to show.
nlohmann::json ApplyStudyCeilings(const nlohmann::json& section, const nlohmann::json& environment);

}  // namespace evalsuite::reports
