// The study file's `entries`: each entry, a built-in's name or a table, read, checked and completed from the
// study's own defaults (threshold, epochs, ...) and from the built-in catalog (built-in entries) or its command and
// log format (external entries). Errors name the file, the line and the key ("entries[2].threshold").
#pragma once

#include <toml++/toml.h>

#include <optional>
#include <string>
#include <vector>

#include "study/plans/study_plan.h"
#include "study/plans/toml_reader.h"

namespace evalsuite::study {

// What the study file gives at its top for every entry that does not say otherwise (command-line flags applied).
struct EntryDefaults {
  std::optional<double> threshold;
  long threshold_line = 1;  // where `threshold` stands, for an error about it
  std::optional<std::vector<double>> extra_thresholds;
  long extra_thresholds_line = 1;
  std::optional<int> epochs;
  std::optional<int> train_subset;
  std::optional<double> timeout_seconds;
};

// Reads `entries` off the study file's root, in order. `overrides.epochs` and `.train_subset` win over an entry's
// own keys.
std::vector<PlannedEntry> ReadPlanEntries(const toml::table& root, const TomlReader& reader,
                                          const EntryDefaults& defaults, const PlanOverrides& overrides);

// A name that becomes a folder name: letters, digits, '.', '_' and '-', not starting with '.' or '-', 1-100 long.
bool IsSafeFolderName(const std::string& name);

}  // namespace evalsuite::study
