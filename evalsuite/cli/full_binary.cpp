#include "evalsuite/cli/full_binary.h"

#include <CLI/CLI.hpp>

#include "common/onednn_isa_cap.h"
#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/run_app.h"

namespace evalsuite::cli {

int FullBinaryMain(int argc, char** argv) {
  // Before anything can start LibTorch or a child process: cap oneDNN where this CPU lists instructions it
  // does not execute (AMX on some Sapphire Rapids VMs), so training, evaluation and external entries run.
  PrepareOneDnnForThisMachine();
  CLI::App app;
  ConfigureApp(app);
  AddCommands(app, {&LightCommands(), &LabelCommands(), &FullOnlyCommands()});
  return RunApp(app, argc, argv);
}

}  // namespace evalsuite::cli
