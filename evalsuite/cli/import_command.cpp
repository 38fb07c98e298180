#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterImportCommand(CLI::App& app) {
  app.add_subcommand("import", "(not yet implemented)");
}

}  // namespace evalsuite::cli
