#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterStudyCommand(CLI::App& app) {
  app.add_subcommand("study", "(not yet implemented)");
}

}  // namespace evalsuite::cli
