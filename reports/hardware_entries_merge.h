// Joins the hardware entries a store yields (a study's own built-in runs, external entries that declared their
// FLOPs) to a `--section hardware=F` file's entries (`evalsuite machine --entries`), one row per entry name: where
// both name an entry, the store's row is kept, since it was measured on the very runs the report is about.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace evalsuite::reports {

// Appends `from_store["entries"]` to `section["entries"]` (created when missing), first removing the section's
// entries of the same name. Returns the names whose file row was replaced, in the file's order.
std::vector<std::string> MergeHardwareEntries(nlohmann::json& section, const nlohmann::json& from_store);

}  // namespace evalsuite::reports
