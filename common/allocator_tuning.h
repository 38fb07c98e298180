// Sets glibc malloc up for tensor workloads and says what it set, for the run header. Call before the first
// large tensor is allocated; calling again is harmless. Leaves malloc alone when the user tuned it through
// GLIBC_TUNABLES, and when evalsuite does not run on glibc.
#pragma once

#include <nlohmann/json.hpp>

namespace evalsuite {

// Why: LibTorch allocates every activation and gradient afresh at each step. glibc serves blocks above its
// mmap threshold (128 KiB, raised dynamically to at most 32 MiB) with fresh mmap()s and gives them back on
// free, so each training step page-faults its multi-megabyte tensors in again: measured on `baseline`, about
// 2 million page faults per 20,000 images and half the step time. Keeping those blocks in the heap
// (no mmap, a high trim threshold) reuses the pages; bench/training_throughput_bench shows the effect.
nlohmann::json TuneAllocatorForTensors();

}  // namespace evalsuite
