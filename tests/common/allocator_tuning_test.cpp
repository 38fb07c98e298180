// TuneAllocatorForTensors: switches glibc's per-allocation mmap off, says so, and defers to GLIBC_TUNABLES.
#include "common/allocator_tuning.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace evalsuite {
namespace {

TEST(AllocatorTuning, RecordsWhatItSetAndLargeBlocksComeFromTheHeap) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer replaces malloc: glibc's mmap settings do not apply to it";
#endif
  unsetenv("GLIBC_TUNABLES");
  const nlohmann::json record = TuneAllocatorForTensors();
  EXPECT_EQ(record["allocator"], "glibc malloc");
  EXPECT_EQ(record["tuning"], "evalsuite");
  EXPECT_EQ(record["mmap_max"], 0);
  EXPECT_GT(record["trim_threshold_bytes"].get<long>(), 64L << 20);
  // An 8 MiB block would be mmapped by default; after tuning glibc serves it from the heap (no mmapped bytes).
  const struct mallinfo2 before = mallinfo2();
  auto block = std::make_unique<std::vector<char>>(8 << 20, 1);
  const struct mallinfo2 during = mallinfo2();
  EXPECT_EQ(during.hblkhd, before.hblkhd) << "the block was mmapped";
  EXPECT_EQ((*block)[12345], 1);
}

TEST(AllocatorTuning, LeavesMallocToTheUsersGlibcTunables) {
  setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=65536", 1);
  const nlohmann::json record = TuneAllocatorForTensors();
  unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(record["tuning"], "GLIBC_TUNABLES");
  EXPECT_EQ(record["glibc_tunables"], "glibc.malloc.mmap_threshold=65536");
}

}  // namespace
}  // namespace evalsuite
