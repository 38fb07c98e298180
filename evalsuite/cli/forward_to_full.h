// The split between the light front binary `evalsuite` and `evalsuite-full`: which command lines the front
// serves itself, and the hand-over (execv of evalsuite-full from the same folder, same arguments, same
// environment, so exit codes, signals and output are the full binary's own).
#pragma once

namespace evalsuite::cli {

// The file name of the full binary, looked up beside the running one.
constexpr const char* kFullBinaryName = "evalsuite-full";

// True for the subcommands that need neither LibTorch nor OpenCV: import, report, compare, study, label, entries.
// Top-level options (--help, --version) and anything else go to the full binary, which knows every command.
bool ServedByLightBinary(int argc, char** argv);

// Replaces this process with evalsuite-full; returns only on failure (after printing why): kExitFailure.
int ForwardToFullBinary(char** argv);

}  // namespace evalsuite::cli
