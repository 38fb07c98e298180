// The MLPerf Training RCP files built into evalsuite (importer/rcp_data, Apache-2.0, generated into
// the build by cmake/EmbedFiles.cmake): "training_<ruleset>/rcps_<benchmark>.json" -> the file's text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace evalsuite::importer {

struct EmbeddedTextFile {
  const char* path;
  const char* text;
};
extern const EmbeddedTextFile kEmbeddedRcpFiles[];
extern const std::size_t kEmbeddedRcpFiles_count;

// The built-in RCP file of a ruleset ("5.1.0") and benchmark, or nullopt.
std::optional<std::string_view> EmbeddedRcp(const std::string& ruleset, const std::string& benchmark);

}  // namespace evalsuite::importer
