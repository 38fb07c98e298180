#include "evalsuite/cli/forward_to_full.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>

#include "evalsuite/common/exit_codes.h"

namespace evalsuite::cli {

bool ServedByLightBinary(int argc, char** argv) {
  if (argc < 2) return false;
  constexpr std::array<std::string_view, 6> kLight = {"import", "report", "study", "label", "entries", "compare"};
  for (std::string_view name : kLight) {
    if (name == argv[1]) return true;
  }
  return false;
}

int ForwardToFullBinary(char** argv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "evalsuite: internal error: cannot read /proc/self/exe to find " << kFullBinaryName << ": "
              << ec.message() << "\n";
    return kExitInternal;
  }
  const fs::path full = self.parent_path() / kFullBinaryName;
  execv(full.c_str(), argv);  // argv[0] stays the name the user typed, so usage lines read "evalsuite ..."
  std::cerr << "evalsuite: error: this command needs " << full.string() << " (LibTorch and OpenCV), which could "
            << "not be started: " << std::strerror(errno) << "\n";
  return kExitFailure;
}

}  // namespace evalsuite::cli
