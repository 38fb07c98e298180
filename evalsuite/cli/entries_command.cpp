#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterEntriesCommand(CLI::App& app) {
  app.add_subcommand("entries", "(not yet implemented)");
}

}  // namespace evalsuite::cli
