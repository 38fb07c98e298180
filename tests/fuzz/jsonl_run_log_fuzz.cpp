// Fuzz target: evalsuite's JSON Lines run log. Never throws on content; the header it keeps can be written back.
#include <nlohmann/json.hpp>

#include "runlog/jsonl_run_log.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const evalsuite::runlog::RunLog run = evalsuite::runlog::ParseJsonlRunLog(evalsuite::fuzz::Text(data, size), "fuzz");
  (void)run.header.dump();
  (void)nlohmann::json(run.warnings).dump();
  for (const auto& p : run.points) (void)evalsuite::runlog::FormatEpoch(p.epoch);
  return 0;
}
