#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/command_table.h"
#include "evalsuite/cli/reference_command.h"

namespace evalsuite::cli {

const std::vector<Command>& FullOnlyCommands() {
  static const std::vector<Command> commands = {{"train", RegisterTrainCommand, 1},
                                                {"holdout", RegisterHoldoutCommand, 5},
                                                {"machine", RegisterMachineCommand, 7},
                                                {"latency", RegisterLatencyCommand, 8},
                                                {"reference", RegisterReferenceCommand, 9}};
  return commands;
}

}  // namespace evalsuite::cli
