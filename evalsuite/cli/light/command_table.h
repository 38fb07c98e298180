// The subcommands and which binary serves them, written once. The light front `evalsuite` serves the commands of
// LightCommands() itself (they need neither LibTorch nor OpenCV nor the labeling server: their files live in
// cli/light/, which the build links without any of them); `label` goes to evalsuite-label (cli/label/: the HTTP
// server's libraries, whose start-up, OpenSSL's above all, would otherwise cost every import and report about
// 6 ms); every other command line goes to evalsuite-full, which serves every table. A command placed in the wrong
// table fails to link the front binary.
#pragma once

#include <CLI/CLI.hpp>
#include <string_view>
#include <vector>

#include "evalsuite/cli/light/label_command_names.h"

namespace evalsuite::cli {

struct Command {
  const char* name;            // the first argument that selects it
  void (*add)(CLI::App& app);  // registers it (and its verbs) with the app
  int help_rank;               // its place in the --help list of the binary that serves it
};

// entries, study, report, compare, import, export, audit (cli/light/light_commands.cpp).
const std::vector<Command>& LightCommands();
// label (cli/label/label_commands.cpp; in evalsuite-label and evalsuite-full; their names, for the front, in
// label_command_names.h).
const std::vector<Command>& LabelCommands();
// train, holdout, machine, latency (cli/full_commands.cpp; only in evalsuite-full).
const std::vector<Command>& FullOnlyCommands();

enum class ServingBinary { kFront, kLabel, kFull };
// Which binary serves this command line: the front for LightCommands() and a lone --version, evalsuite-label for
// kLabelCommandNames, and evalsuite-full, which knows every command, for --help and anything else.
ServingBinary BinaryServing(int argc, char** argv);

// Registers the commands of every table, in help_rank order.
void AddCommands(CLI::App& app, const std::vector<const std::vector<Command>*>& tables);

}  // namespace evalsuite::cli
