#include "evalsuite/cli/light/forward_to_binary.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/error.h"
#include "common/exit_codes.h"
#include "evalsuite/cli/light/own_binary.h"

namespace evalsuite::cli {

int ForwardToBinary(const BesideBinary& binary, char** argv) {
  std::filesystem::path file;
  try {
    file = OwnBinary().parent_path() / binary.file_name;
  } catch (const Error& e) {
    std::cerr << "evalsuite: internal error: cannot find " << binary.file_name << ": " << e.what() << "\n";
    return kExitInternal;
  }
  execv(file.c_str(), argv);  // argv[0] stays the name the user typed, so usage lines read "evalsuite ..."
  std::cerr << "evalsuite: error: this command needs " << file.string() << " (" << binary.what_it_has
            << "), which could not be started: " << std::strerror(errno) << "\n";
  return kExitFailure;
}

}  // namespace evalsuite::cli
