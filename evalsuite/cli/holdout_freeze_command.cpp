#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutFreezeCommand(CLI::App& holdout) {
  holdout.add_subcommand("freeze", "(not yet implemented)");
}

}  // namespace evalsuite::cli
