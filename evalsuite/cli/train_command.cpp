#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterTrainCommand(CLI::App& app) {
  app.add_subcommand("train", "(not yet implemented)");
}

}  // namespace evalsuite::cli
