// What an external entry's run-log header may declare about its hardware, so the report's hardware section can
// give it the built-in entries' figures (achieved FLOP/s, MFU, roofline point) from its measured throughput:
//   "flops_per_sample": model FLOPs of one training sample, forward and backward (required for any figure)
//   "bytes_per_sample": bytes it moves (gives the operational intensity and the roofline point)
//   "samples_per_epoch": training samples per epoch (with each evaluation's epoch: samples trained so far)
//   "device": e.g. "NVIDIA A100-SXM4-80GB" (its peak from the table in common/accelerator_peaks.h)
//   "device_count": devices the run trains on (default 1); peaks below are per device
//   "precision": "fp32", "tf32", "bf16", "fp16" or "fp8" (which of the device's peaks applies)
//   "peak_flops": FLOP/s of one device at that precision (overrides the table)
//   "peak_bandwidth": bytes/s of one device's memory (overrides the table)
// A value that is not a finite number in its range (negative, zero, NaN, absurdly large) or not a known word is
// ignored with a warning naming the file, line and field; the rest of the header is kept.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::runlog {

struct DeclaredHardware {
  std::optional<double> flops_per_sample;
  std::optional<double> bytes_per_sample;
  std::optional<double> samples_per_epoch;
  std::optional<double> peak_flops;      // per device
  std::optional<double> peak_bandwidth;  // per device
  std::string device;
  std::string precision;
  int device_count = 1;
  bool Declared() const { return flops_per_sample.has_value(); }
};

// The header's declarations. `where` ("file:line" of the header) starts each warning; `warnings` may be null
// (the report re-reads a stored header whose warnings were given when the log was read).
DeclaredHardware ReadDeclaredHardware(const nlohmann::json& header, const std::string& where,
                                      std::vector<std::string>* warnings);

}  // namespace evalsuite::runlog
