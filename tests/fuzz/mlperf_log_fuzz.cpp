// Fuzz target: MLPerf result logs (v0.5, v0.6, v0.7+). Whatever the bytes, the parser returns a run (malformed
// lines become warnings and parse errors) whose every field, key counts included, can be written as JSON (valid
// UTF-8, no deep tree).
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "runlog/mlperf_log.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const evalsuite::runlog::MlperfRun run = evalsuite::runlog::ParseMlperfLog(evalsuite::fuzz::Text(data, size), "fuzz");
  nlohmann::json out = {{"benchmark", run.benchmark}, {"submission", run.submission}, {"warnings", run.warnings}};
  // The compliance check's inputs: every key with its first value, and the records the official parser rejects.
  for (const auto& [key, stat] : run.keys) out["keys"][key] = {stat.count, stat.first_line, stat.first_value};
  for (const auto& e : run.parse_errors) out["parse_errors"].push_back({e.line, e.why});
  (void)out.dump();  // throws (type_error 316) on invalid UTF-8: a crash here is a finding
  return 0;
}
