// Fuzz target: study plans (TOML). A bad file is an evalsuite::Error naming file, line and key; nothing else.
#include "common/error.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const evalsuite::study::StudyPlan plan =
        evalsuite::study::ParseStudyPlan(evalsuite::fuzz::Text(data, size), "/fuzz/s.toml", {}, 2);
    (void)evalsuite::study::PlanToJson(plan).dump();
  } catch (const evalsuite::Error&) {
  }
  return 0;
}
