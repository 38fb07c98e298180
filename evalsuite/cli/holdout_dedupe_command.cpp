#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutDedupeCommand(CLI::App& holdout) {
  holdout.add_subcommand("dedupe", "(not yet implemented)");
}

}  // namespace evalsuite::cli
