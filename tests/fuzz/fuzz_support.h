// What every fuzz target shares: the input as text, and a scratch file for parsers that read a path.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace evalsuite::fuzz {

inline std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A per-process folder in /dev/shm (memory, fast) or the temp folder, removed when the process exits normally
// (every replay test and every fuzzing session used to leave one behind).
struct ScratchFolder {
  std::filesystem::path dir;
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

inline std::filesystem::path ScratchDir() {
  static const ScratchFolder folder = [] {
    std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    std::filesystem::path d = base / ("evalsuite-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return ScratchFolder{d};
  }();
  return folder.dir;
}

inline std::filesystem::path WriteScratch(const std::string& name, const uint8_t* data, size_t size) {
  const std::filesystem::path file = ScratchDir() / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

}  // namespace evalsuite::fuzz
