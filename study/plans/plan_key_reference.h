// The study file's keys for people: each key's type, default, allowed values and meaning, as the reference page
// docs/reference/study-file.md prints them (`evalsuite reference` writes it). Data only: the readers beside it
// (study_plan_loader.cpp, variance_keys.cpp, plan_entry_keys.cpp, regex_log_keys.cpp, comparison_plan_keys.cpp,
// slurm_options.cpp) decide; tests/study/plan_key_reference_test.cpp fails when a key they accept is missing here or a
// range differs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::study {

struct PlanKeyDoc {
  std::string table;  // "" (top level), "entries[]", "stability", "sequential", "slurm"
  std::string key;
  std::string type;           // as TOML names it: "integer", "number", "string", "boolean", "array", "table"
  std::string default_value;  // what applies when the key is absent
  std::string allowed;        // the values the reader accepts, in words
  std::string meaning;
  // Integers only: the bounds the reader enforces (both included), checked by the test against the reader.
  std::optional<int64_t> min;
  std::optional<int64_t> max;
};

// Every key of a study file, table by table, in the order the reference prints them.
const std::vector<PlanKeyDoc>& PlanKeyReference();

// The page: one Markdown table per TOML table.
std::string PlanKeyReferenceMarkdown();

}  // namespace evalsuite::study
