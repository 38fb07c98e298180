#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/label/label_binary.h"
#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/light/run_app.h"

namespace evalsuite::cli {

const std::vector<Command>& LabelCommands() {
  static const std::vector<Command> commands = {{"label", RegisterLabelCommand, 6}};
  return commands;
}

int LabelBinaryMain(int argc, char** argv) {
  CLI::App app;
  ConfigureApp(app);
  AddCommands(app, {&LabelCommands()});
  return RunApp(app, argc, argv);
}

}  // namespace evalsuite::cli
