// Fuzz target: DAWNBench entries (TSV, as the reader sees it after UTF-8 repair) and their JSON beside it.
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/dawnbench_log.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::ToValidUtf8(evalsuite::fuzz::Text(data, size));
  try {
    const evalsuite::runlog::DawnbenchEntry entry = evalsuite::runlog::ParseDawnbenchTsv(text, "fuzz.tsv");
    (void)nlohmann::json(entry.warnings).dump();
  } catch (const evalsuite::Error&) {
  }
  std::string error;
  const nlohmann::json info = evalsuite::TryParseUserJson(text, error);
  if (!info.is_discarded()) (void)info.dump();
  return 0;
}
