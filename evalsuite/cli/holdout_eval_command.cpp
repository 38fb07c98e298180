#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutEvalCommand(CLI::App& holdout) {
  holdout.add_subcommand("eval", "(not yet implemented)");
}

}  // namespace evalsuite::cli
