// Fuzz target: IDX files (Fashion-MNIST's format, plain or gzipped), as images (rank 3) and as labels (rank 1).
#include "common/error.h"
#include "datasets/fashion_mnist/idx_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path file = evalsuite::fuzz::WriteScratch("input.idx", data, size);
  for (int rank : {3, 1}) {
    try {
      (void)evalsuite::datasets::ReadIdxFile(file, rank);
    } catch (const evalsuite::Error&) {
    }
  }
  return 0;
}
