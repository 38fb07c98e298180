// evalsuite: can a fast training result be trusted? The front binary. Commands that need neither LibTorch, OpenCV
// nor the labeling server (import, report, compare, study, entries) run here, so they start in milliseconds instead
// of loading about 290 shared libraries; `label` is handed to evalsuite-label, every other command and top-level
// --help to evalsuite-full, both beside this binary, with the same arguments (evalsuite/cli/light/command_table.h
// decides which, forward_to_binary.h hands over).
#include "evalsuite/cli/light/front_binary.h"

int main(int argc, char** argv) { return evalsuite::cli::FrontBinaryMain(argc, argv); }
