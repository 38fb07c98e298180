// evalsuite-full: every subcommand, LibTorch and OpenCV included (train, holdout eval and the rest). Users run
// `evalsuite`, which serves the commands that need neither library itself and hands the others to this binary
// (see main.cpp); calling it directly works the same.
#include <CLI/CLI.hpp>

#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/run_app.h"
#include "evalsuite/common/onednn_isa_cap.h"

int main(int argc, char** argv) {
  // Before anything can start LibTorch or a child process: cap oneDNN where this CPU lists instructions it
  // does not execute (AMX on some Sapphire Rapids VMs), so training, evaluation and external entries run.
  evalsuite::PrepareOneDnnForThisMachine();
  CLI::App app;
  namespace cli = evalsuite::cli;
  cli::ConfigureApp(app);
  cli::RegisterEntriesCommand(app);
  cli::RegisterTrainCommand(app);
  cli::RegisterStudyCommand(app);
  cli::RegisterReportCommand(app);
  cli::RegisterCompareCommand(app);
  cli::RegisterImportCommand(app);
  cli::RegisterHoldoutCommand(app);
  cli::RegisterLabelCommand(app);
  cli::RegisterMachineCommand(app);
  cli::RegisterLatencyCommand(app);
  return cli::RunApp(app, argc, argv);
}
