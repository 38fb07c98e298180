// evalsuite-full: every subcommand, LibTorch and OpenCV included (train, holdout eval and the rest). Users run
// `evalsuite`, which serves the commands that need neither library itself and hands the others to this binary
// (see main.cpp); calling it directly works the same.
#include "evalsuite/cli/full_binary.h"

int main(int argc, char** argv) { return evalsuite::cli::FullBinaryMain(argc, argv); }
