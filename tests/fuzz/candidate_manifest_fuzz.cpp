// Fuzz target: candidate manifests (candidates.json), as `holdout dedupe` and `label serve` read them.
#include "common/error.h"
#include "datasets/images/candidate_manifest.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path file = evalsuite::fuzz::WriteScratch("candidates.json", data, size);
  try {
    const evalsuite::datasets::CandidateManifest manifest = evalsuite::datasets::ReadCandidateManifest(file);
    (void)evalsuite::datasets::ToJson(manifest).dump();
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
