// Peak FLOP/s per precision and memory bandwidth of a few accelerators that external entries run on, from their
// vendors' datasheets (each row names its source; dense figures, never the "with sparsity" ones), so an external
// entry that declares only its `device` still gets an MFU and a roofline. A device string matches a row when it
// names the row's model and variant ("NVIDIA A100-SXM4-80GB", "a100 sxm 80gb", "TPU v3"); anything else gets no
// figure rather than a guess.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace evalsuite {

struct AcceleratorPeak {
  std::string device;     // the row's name, e.g. "NVIDIA A100 SXM4 80GB"
  std::string precision;  // "fp32", "tf32", "bf16", "fp16", "fp8"
  double peak_flops = 0;  // dense FLOP/s of one device at that precision
  double bandwidth = 0;   // bytes/s of the device's memory (HBM/GDDR)
  std::string source;     // "NVIDIA A100 datasheet"
};

// The row for `device` at `precision`, or nullopt when the device is not in the table or has no figure for that
// precision (e.g. bf16 on a V100, or no precision given: a device's peaks differ up to 16x between precisions).
std::optional<AcceleratorPeak> LookUpAcceleratorPeak(std::string_view device, std::string_view precision);

// The precisions the table knows: fp32, tf32, bf16, fp16, fp8.
bool IsKnownPrecision(std::string_view precision);

}  // namespace evalsuite
