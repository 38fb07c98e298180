// The main() of evalsuite-label (evalsuite/main_label.cpp calls it), kept beside the label command's sources so that
// the CLI11 headers it needs are compiled once, in the same unity batch as theirs.
#pragma once

namespace evalsuite::cli {

// Serves LabelCommands() (command_table.h) over argv; returns the exit code.
int LabelBinaryMain(int argc, char** argv);

}  // namespace evalsuite::cli
