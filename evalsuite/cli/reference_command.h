// evalsuite reference --out DIR (hidden, served by evalsuite-full, which registers every command): writes
// docs/reference/*.md from the tables the tool runs on. reference_command.cpp says what each page holds.
#pragma once

#include <CLI/CLI.hpp>

namespace evalsuite::cli {

void RegisterReferenceCommand(CLI::App& app);

}  // namespace evalsuite::cli
