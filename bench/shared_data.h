// Where the benchmarks find ../shared/data (the MLPerf rounds and other real logs): $EVALSUITE_SHARED_DATA, else the
// folder beside the project root. Needs EVALSUITE_SOURCE_DIR, which bench/CMakeLists.txt defines for every bench.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

namespace evalsuite::bench {

// The first candidate holding `must_hold` (a path relative to data/), canonical; nullopt when none does.
inline std::optional<std::filesystem::path> SharedDataHolding(const std::filesystem::path& must_hold) {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("EVALSUITE_SHARED_DATA")) candidates.emplace_back(env);
  candidates.push_back(std::filesystem::path(EVALSUITE_SOURCE_DIR) / ".." / "shared" / "data");
  for (const std::filesystem::path& c : candidates) {
    if (std::filesystem::is_directory(c / must_hold)) return std::filesystem::weakly_canonical(c);
  }
  return std::nullopt;
}

}  // namespace evalsuite::bench
