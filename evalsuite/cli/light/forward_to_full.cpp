#include "evalsuite/cli/light/forward_to_full.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "evalsuite/cli/light/own_binary.h"
#include "common/error.h"
#include "common/exit_codes.h"

namespace evalsuite::cli {

int ForwardToFullBinary(char** argv) {
  std::filesystem::path full;
  try {
    full = OwnBinary().parent_path() / kFullBinaryName;
  } catch (const Error& e) {
    std::cerr << "evalsuite: internal error: cannot find " << kFullBinaryName << ": " << e.what() << "\n";
    return kExitInternal;
  }
  execv(full.c_str(), argv);  // argv[0] stays the name the user typed, so usage lines read "evalsuite ..."
  std::cerr << "evalsuite: error: this command needs " << full.string() << " (LibTorch and OpenCV), which could "
            << "not be started: " << std::strerror(errno) << "\n";
  return kExitFailure;
}

}  // namespace evalsuite::cli
