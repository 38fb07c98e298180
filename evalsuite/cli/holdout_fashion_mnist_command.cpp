#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutFashionMnistCommand(CLI::App& holdout) {
  holdout.add_subcommand("fashion-mnist", "(not yet implemented)");
}

}  // namespace evalsuite::cli
