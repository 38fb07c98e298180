// The hand-over from the light front binary `evalsuite` to the binary that serves a command it does not serve
// itself (command_table.h decides which): execv of that binary from the same folder, same arguments, same
// environment, so exit codes, signals and output are that binary's own.
#pragma once

namespace evalsuite::cli {

// A binary beside the front: its file name, and what it has that the front leaves out (the error when it is missing
// says so).
struct BesideBinary {
  const char* file_name;
  const char* what_it_has;
};
constexpr BesideBinary kFullBinary = {"evalsuite-full", "LibTorch and OpenCV"};
constexpr BesideBinary kLabelBinary = {"evalsuite-label", "the labeling server"};  // cpp-httplib, OpenSSL, ICU

// Replaces this process with `binary` from the front's folder; returns only on failure (after printing why, naming
// the binary and what it has): kExitFailure, or kExitInternal when the front cannot find itself.
int ForwardToBinary(const BesideBinary& binary, char** argv);

}  // namespace evalsuite::cli
