// The end of every command's --help: two or three real invocations and the guide that explains the command, kept
// in one table (help_footers.cpp) so that the commands' own files stay about what they do. AddCommands applies it
// in every binary; docs/reference/commands.md prints it with the rest of each command's help.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace evalsuite::cli {

// Sets the footer of the app itself and of each registered (sub)command the table names; commands this binary does
// not serve are left alone.
void ApplyHelpFooters(CLI::App& app);

// The footer the table gives a command path ("" for the app, "study run"); "" when it has none.
std::string HelpFooter(const std::string& command_path);

}  // namespace evalsuite::cli
