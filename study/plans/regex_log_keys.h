// The regex log format's keys of an external entry table (log_regex, log_end_regex, log_time_unit, log_time_kind,
// log_metric_unit; meaning in runlog/regex_log.h): read off the study file, checked there (every pattern
// compiled, the named groups it needs present) so that a bad pattern fails the plan, not every run, and carried in
// the stored plan as JSON.
#pragma once

#include <toml++/toml.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "runlog/regex_log.h"
#include "study/plans/toml_reader.h"

namespace evalsuite::study {

const std::set<std::string>& RegexLogKeys();

// Reads the keys present in `table` (entry `prefix`, e.g. "entries[1]") into `options`. Fails with
// "file:line: key 'entries[1].log_regex[0]': does not compile at offset 7: ..." when a pattern does not compile or
// lacks a needed group, when log_format = "regex" has no log_regex, or when a key is given for another format.
void ReadRegexLogKeys(const TomlReader& reader, const toml::table& table, const std::string& prefix,
                      const std::string& log_format, long entry_line, runlog::RegexLogOptions& options);

nlohmann::json RegexLogOptionsToJson(const runlog::RegexLogOptions& options);
// Throws nlohmann::json exceptions on a missing or mistyped field (PlanFromJson names the plan's key).
runlog::RegexLogOptions RegexLogOptionsFromJson(const nlohmann::json& json);

}  // namespace evalsuite::study
