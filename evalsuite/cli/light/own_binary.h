// The running binary's own path (/proc/self/exe), read once per process: study runs start it for built-in entries
// and Slurm tasks, and the front binary finds evalsuite-full beside it.
#pragma once

#include <filesystem>

namespace evalsuite::cli {

// Throws IoError when /proc/self/exe cannot be read.
const std::filesystem::path& OwnBinary();

}  // namespace evalsuite::cli
