// The hardware view of an entry whose runs ran elsewhere (an external command's or an imported JSON Lines log):
// its header's declarations (runlog/declared_hardware.h) against its measured progress. Per run,
// samples trained = the last evaluation's epoch x samples_per_epoch, over that evaluation's training seconds
// (evaluation excluded, as the log counts it); achieved FLOP/s = samples/s x flops_per_sample; MFU against the
// declared peak, else the device table's (common/accelerator_peaks.h), else none; the roofline point and
// bound when bytes_per_sample and a bandwidth are known. The entry's figures are the median run's.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace evalsuite::study {

// An entry of the report's hardware section (reports/hardware_section.h) with "source": "external",
// "figures_source", "peak_source", "device", "device_count", "runs" [{index, samples, train_seconds,
// samples_per_second, achieved_flops, mfu}] besides the built-in entries' keys; nullopt when no finished run of
// `runs` declares flops_per_sample.
std::optional<nlohmann::json> ExternalHardwareEntry(const std::string& entry,
                                                    const std::vector<store::RunRecord>& runs);

}  // namespace evalsuite::study
