#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterReportCommand(CLI::App& app) {
  app.add_subcommand("report", "(not yet implemented)");
}

}  // namespace evalsuite::cli
