// evalsuite-full: every subcommand, LibTorch and OpenCV included (train, holdout eval and the rest). Users run
// `evalsuite`, which serves the commands that need neither library itself and hands the others to this binary
// (see main.cpp); calling it directly works the same.
#include <CLI/CLI.hpp>

#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/run_app.h"
#include "common/onednn_isa_cap.h"

int main(int argc, char** argv) {
  // Before anything can start LibTorch or a child process: cap oneDNN where this CPU lists instructions it
  // does not execute (AMX on some Sapphire Rapids VMs), so training, evaluation and external entries run.
  evalsuite::PrepareOneDnnForThisMachine();
  CLI::App app;
  namespace cli = evalsuite::cli;
  cli::ConfigureApp(app);
  cli::AddCommands(app, {&cli::LightCommands(), &cli::LabelCommands(), &cli::FullOnlyCommands()});
  return cli::RunApp(app, argc, argv);
}
