// The subcommands and which binary serves them, written once. The light front `evalsuite` serves the commands of
// LightCommands() itself (they need neither LibTorch nor OpenCV: their files live in cli/light/, which is the light
// library the build links without either); every other command line goes to evalsuite-full, which serves
// LightCommands() and FullOnlyCommands(). A command placed in the wrong table fails to link the front binary.
#pragma once

#include <CLI/CLI.hpp>

#include <string_view>
#include <vector>

namespace evalsuite::cli {

struct Command {
  const char* name;             // the first argument that selects it
  void (*add)(CLI::App& app);   // registers it (and its verbs) with the app
  int help_rank;                // its place in the --help list of the binary that serves it
};

// import, report, study, label, entries (cli/light/light_commands.cpp).
const std::vector<Command>& LightCommands();
// train, holdout, machine, latency (cli/full_commands.cpp; only in evalsuite-full).
const std::vector<Command>& FullOnlyCommands();

// True when argv[1] names one of LightCommands(). Top-level options (--help, --version) and anything else go to the
// full binary, which knows every command.
bool ServedByLightBinary(int argc, char** argv);

// Registers the commands of every table, in help_rank order.
void AddCommands(CLI::App& app, const std::vector<const std::vector<Command>*>& tables);

}  // namespace evalsuite::cli
