#include "common/allocator_tuning.h"

#include <cstdlib>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace evalsuite {
namespace {
// Freed memory above this much at the top of the heap goes back to the system: the peak of a training step
// stays mapped, a one-off spike larger than this does not linger.
constexpr long kTrimThresholdBytes = 1L << 30;
}  // namespace

nlohmann::json TuneAllocatorForTensors() {
#if defined(__GLIBC__)
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && std::string(tunables).find("glibc.malloc.") != std::string::npos) {
    return {{"allocator", "glibc malloc"}, {"tuning", "GLIBC_TUNABLES"}, {"glibc_tunables", tunables}};
  }
  const bool mmap_off = mallopt(M_MMAP_MAX, 0) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes) == 1;
  return {{"allocator", "glibc malloc"},
          {"tuning", mmap_off && trim_set ? "evalsuite" : "partly refused by glibc"},
          {"mmap_max", mmap_off ? nlohmann::json(0) : nlohmann::json(nullptr)},
          {"trim_threshold_bytes", trim_set ? nlohmann::json(kTrimThresholdBytes) : nlohmann::json(nullptr)}};
#else
  return {{"allocator", "not glibc"}, {"tuning", "none"}};
#endif
}

}  // namespace evalsuite
