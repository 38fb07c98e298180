// Fuzz target: frozen holdout manifests (manifest.json), as `holdout eval` reads them.
#include "common/error.h"
#include "datasets/images/holdout_manifest.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  evalsuite::fuzz::WriteScratch("manifest.json", data, size);
  try {
    const evalsuite::datasets::Holdout holdout = evalsuite::datasets::ReadHoldout(evalsuite::fuzz::ScratchDir());
    (void)evalsuite::datasets::ComputeHoldoutVersionHash(holdout);
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
