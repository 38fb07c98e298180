#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/command_table.h"

namespace evalsuite::cli {

const std::vector<Command>& FullOnlyCommands() {
  static const std::vector<Command> commands = {{"train", RegisterTrainCommand},
                                                {"holdout", RegisterHoldoutCommand},
                                                {"machine", RegisterMachineCommand},
                                                {"latency", RegisterLatencyCommand}};
  return commands;
}

}  // namespace evalsuite::cli
