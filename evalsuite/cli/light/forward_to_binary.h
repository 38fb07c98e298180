// The hand-over from the light front binary `evalsuite` to the binary that serves a command it does not serve
// itself (command_table.h decides which): execv of that binary from the same folder, same arguments, same
// environment, so exit codes, signals and output are that binary's own.
#pragma once

namespace evalsuite::cli {

// The binaries beside the front, and what each has that the front leaves out (for the error when one is missing).
constexpr const char* kFullBinaryName = "evalsuite-full";    // LibTorch and OpenCV
constexpr const char* kLabelBinaryName = "evalsuite-label";  // the labeling server (cpp-httplib, OpenSSL, ICU)

// Replaces this process with `binary_name` from the front's folder; returns only on failure (after printing why,
// naming the binary and `what_it_has`): kExitFailure, or kExitInternal when the front cannot find itself.
int ForwardToBinary(const char* binary_name, const char* what_it_has, char** argv);

}  // namespace evalsuite::cli
