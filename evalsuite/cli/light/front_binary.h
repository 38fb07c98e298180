// The main() of the front binary `evalsuite` (evalsuite/main.cpp calls it): serves LightCommands() and hands every
// other command line to the binary command_table.h names. Kept in the light library, whose unity batch parses the
// CLI11 headers anyway, so that main.cpp compiles in a blink instead of 7 s.
#pragma once

namespace evalsuite::cli {

// Serves argv or replaces this process with the binary that serves it; returns the exit code.
int FrontBinaryMain(int argc, char** argv);

}  // namespace evalsuite::cli
