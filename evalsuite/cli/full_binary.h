// The main() of evalsuite-full (evalsuite/main_full.cpp calls it): serves every command of every table. Kept in the
// full command library, whose unity batch parses the CLI11 headers anyway, so that main_full.cpp compiles in a
// blink instead of 8 s.
#pragma once

namespace evalsuite::cli {

// Serves argv; returns the exit code.
int FullBinaryMain(int argc, char** argv);

}  // namespace evalsuite::cli
