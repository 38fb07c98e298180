// The executors' small JSON records in run folders (run records, Slurm task start and end records, manifests):
// written to a temporary name, fsynced and renamed, so a reader sees all or nothing; read back as nullopt when the
// file is absent or not a whole JSON object.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

namespace evalsuite::study {

// IoError naming the file when it cannot be written.
void WriteJsonFileAtomically(const std::filesystem::path& file, const nlohmann::json& json);
std::optional<nlohmann::json> ReadJsonFile(const std::filesystem::path& file);

}  // namespace evalsuite::study
