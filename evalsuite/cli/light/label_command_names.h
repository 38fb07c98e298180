// The commands the front binary hands to evalsuite-label, by name only: the front routes them (command_table.h's
// BinaryServing) without linking their code, which lives in cli/label/ with the labeling server's libraries.
#pragma once

namespace evalsuite::cli {

// The names of LabelCommands() (cli/label/label_commands.cpp); tests/cli/front_binary_cli_test.cpp checks that
// evalsuite-label serves each.
inline constexpr const char* kLabelCommandNames[] = {"label"};

}  // namespace evalsuite::cli
