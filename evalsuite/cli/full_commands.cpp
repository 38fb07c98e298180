#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/command_table.h"

namespace evalsuite::cli {

const std::vector<Command>& FullOnlyCommands() {
  static const std::vector<Command> commands = {{"train", RegisterTrainCommand, 1},
                                                {"holdout", RegisterHoldoutCommand, 5},
                                                {"machine", RegisterMachineCommand, 7},
                                                {"latency", RegisterLatencyCommand, 8}};
  return commands;
}

}  // namespace evalsuite::cli
