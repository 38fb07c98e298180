#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterLabelCommand(CLI::App& app) {
  app.add_subcommand("label", "(not yet implemented)");
}

}  // namespace evalsuite::cli
