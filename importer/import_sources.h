// Which files an import reads, found from the PATH arguments (files, or folders searched recursively), each
// with its format and the group it belongs to: MLPerf and JSON Lines runs group by folder
// (<...>/results/<system>/<benchmark>/result_*.txt), a DAWNBench entry is its TSV (with the JSON beside it).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "importer/import_format.h"

namespace evalsuite::importer {

struct SourceFile {
  std::filesystem::path file;                   // as found (argument joined with the relative path below it)
  std::filesystem::path canonical;              // for de-duplication and read-only checks
  ImportFormat format = ImportFormat::kMlperf;  // never kAuto
  std::filesystem::path group;                  // canonical folder (MLPerf, JSON Lines) or canonical TSV (DAWNBench)
  std::string group_source;                     // the group's path relative to the PATH argument's parent
};

struct Discovery {
  std::vector<SourceFile> files;  // groups in discovery order, files in natural file-name order within a group
  std::vector<std::filesystem::path> roots;  // canonical PATH arguments (folders or files)
  std::vector<std::string> errors;           // "path: why" for arguments or folders that cannot be read
};

// Folders are walked in name order. Auto: result_*.txt -> MLPerf, *.tsv -> DAWNBench, *.jsonl -> JSON Lines, and the
// frameworks' files by name and content (framework_import.h's ProbeFrameworkFile);
// a file named on the command line is MLPerf unless its extension says otherwise (a .csv is always read as a CSV:
// one that no CSV reader places is an error saying so, never "not an MLPerf log"). A forced format takes every
// file of that kind (MLPerf: *.txt and *.log too).
Discovery DiscoverSources(const std::vector<std::filesystem::path>& paths, ImportFormat format);

// "result_2.txt" < "result_10.txt": digit runs compare as numbers.
bool NaturalLess(const std::string& a, const std::string& b);

// True when `path` is `folder` or lies below it (both canonical).
bool IsWithin(const std::filesystem::path& path, const std::filesystem::path& folder);

}  // namespace evalsuite::importer
