// Runs a CLI11 app over argv and maps the outcome to the process exit code (common/exit_codes.h):
// the one place where an evalsuite::Error, a usage error or an unexpected exception becomes an exit status.
// Both binaries (the light front `evalsuite` and `evalsuite-full`) end their main() with it.
#pragma once

#include <CLI/CLI.hpp>

namespace evalsuite::cli {

// The app's name line and version flag, shared by both binaries so that `--version` and `--help` read alike.
void ConfigureApp(CLI::App& app);

// Parses and runs the chosen subcommand; returns the exit code.
int RunApp(CLI::App& app, int argc, char** argv);

}  // namespace evalsuite::cli
