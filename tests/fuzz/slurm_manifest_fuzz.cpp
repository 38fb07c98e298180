// Fuzz target: an array manifest (.slurm/array-NNNN.json), read by every array task on its compute node and by the
// coordinator on resume, with the study plan it carries. A manifest this evalsuite did not write is an
// evalsuite::Error naming the file (and the plan's key); nothing else.
#include "common/error.h"
#include "study/execution/slurm_task.h"
#include "study/plans/study_plan.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::filesystem::path file = evalsuite::fuzz::WriteScratch("array-0001.json", data, size);
  try {
    const evalsuite::study::ArrayManifest manifest = evalsuite::study::ReadManifest(file);
    (void)evalsuite::study::PlanToJson(evalsuite::study::PlanFromJson(manifest.plan)).dump();
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
