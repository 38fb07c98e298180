// Fuzz target: nvidia-smi's --query-gpu CSV output, line by line, as the GPU sampler reads it. A line is a row with
// an index of digits, a UUID and figures in range (memory 0..1e12 MiB, utilization 0..100 %), or it is refused
// with a reason; never an exception, never a crash.
#include <cmath>
#include <optional>
#include <string>

#include "study/hardware/gpu_sampler.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void CheckFigure(const std::optional<double>& value, double max) {
  if (value && !(std::isfinite(*value) && *value >= 0 && *value <= max)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::fuzz::Text(data, size);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string why;
    const std::optional<evalsuite::study::GpuReading> reading =
        evalsuite::study::ParseGpuQueryLine(text.substr(start, end - start), &why);
    if (reading) {
      if (reading->index.empty() || reading->uuid.empty()) __builtin_trap();
      CheckFigure(reading->memory_used_mib, 1e12);
      CheckFigure(reading->memory_total_mib, 1e12);
      CheckFigure(reading->utilization_percent, 100);
    } else if (why.empty()) {
      __builtin_trap();  // a refused line always says why
    }
    start = end + 1;
  }
  return 0;
}
