// Fuzz target: what Slurm's commands print, as the coordinator reads it (squeue -o '%i|%T|%N|%r' lines, scontrol
// show job -o's Key=Value line, sacct --parsable2 rows; the first line is also the task name sacct's rows are
// matched against). Another Slurm version, a site's wrapper script or a cut pipe prints anything: never an
// exception, never a crash, and every field read is valid UTF-8 (the store keeps node and reason in JSON, whose
// writer throws on anything else).
#include <string>

#include "common/json_guard.h"
#include "study/execution/slurm_client.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void CheckState(const evalsuite::study::SlurmTaskState& state) {
  for (const std::string* field : {&state.state, &state.node, &state.reason, &state.exit_code}) {
    if (!evalsuite::IsValidUtf8(*field)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::fuzz::Text(data, size);
  for (const auto& [name, state] : evalsuite::study::ParseSqueue(text)) CheckState(state);
  if (auto state = evalsuite::study::ParseScontrolJob(text)) CheckState(*state);
  if (auto state = evalsuite::study::ParseSacct(text, text.substr(0, text.find('\n')))) CheckState(*state);
  return 0;
}
