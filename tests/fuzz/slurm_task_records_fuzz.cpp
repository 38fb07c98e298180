// Fuzz target: the records an array task leaves in its run folder on the shared filesystem, as the coordinator
// reads them (task-start.json before the NUL byte of the input, task-end.json after it; no NUL: the end record
// alone). Another evalsuite version, a hand edit or a filesystem that lost a write leaves anything there: the
// coordinator records the run from what it can read and never throws (a throw would stop the study before the
// other runs are recorded).
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "study/execution/slurm_client.h"
#include "study/execution/slurm_executor.h"
#include "study/execution/slurm_task.h"
#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "tests/fuzz/fuzz_support.h"

namespace fs = std::filesystem;
using evalsuite::study::StudyPlan;

namespace {

const StudyPlan& Plan() {
  static const StudyPlan plan = [] {
    evalsuite::study::PlanOverrides overrides;
    overrides.out_dir = (evalsuite::fuzz::ScratchDir() / "runs").string();
    return evalsuite::study::ParseStudyPlan(
        "name = \"fz\"\nruns = 1\nseed = 1\nthreshold = 0.5\nexecutor = \"slurm\"\n"
        "entries = [ { name = \"e\", command = \"true {log}\" } ]\n[slurm]\ntime_limit = \"10\"\n",
        "/fuzz/s.toml", overrides, 2);
  }();
  return plan;
}

void Write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::fuzz::Text(data, size);
  const StudyPlan& plan = Plan();
  const fs::path run_dir = evalsuite::fuzz::ScratchDir() / "run-000";
  fs::remove_all(run_dir);
  fs::create_directories(run_dir);
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos) Write(run_dir / evalsuite::study::kTaskStartFile, text.substr(0, nul));
  Write(run_dir / evalsuite::study::kTaskEndFile, nul == std::string::npos ? text : text.substr(nul + 1));

  (void)evalsuite::study::ConcludeTaskWithEnd(plan, plan.entries[0], plan.schedule[0], run_dir).execution.dump();
  for (const char* state : {"TIMEOUT", "OUT_OF_MEMORY", "CANCELLED"}) {
    evalsuite::study::SlurmTaskState final_state{state, "", "None", "0:9"};
    (void)evalsuite::study::ConcludeTaskWithoutEnd(plan, plan.entries[0], plan.schedule[0], run_dir, final_state)
        .execution.dump();
  }
  (void)evalsuite::study::ConcludeTaskWithoutEnd(plan, plan.entries[0], plan.schedule[0], run_dir, std::nullopt);
  return 0;
}
