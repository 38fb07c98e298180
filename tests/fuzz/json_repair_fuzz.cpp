// Fuzz target: the JSON guards. RepairJsonText always returns valid UTF-8, leaves valid JSON unchanged, and what
// it returns parses whenever the input was JSON apart from what it repairs; ToValidUtf8 is idempotent.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/json_guard.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = evalsuite::fuzz::Text(data, size);
  evalsuite::JsonRepairs repairs;
  const std::string repaired = evalsuite::RepairJsonText(text, &repairs);
  if (!evalsuite::IsValidUtf8(repaired)) std::abort();
  const std::string valid = evalsuite::ToValidUtf8(text);
  if (evalsuite::ToValidUtf8(valid) != valid) std::abort();
  std::string error;
  const nlohmann::json parsed = evalsuite::TryParseUserJson(text, error);
  if (!parsed.is_discarded() && (repairs.total() != 0 || repaired != text)) std::abort();  // valid JSON untouched
  return 0;
}
