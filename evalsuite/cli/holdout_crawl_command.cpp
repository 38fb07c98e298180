#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutCrawlCommand(CLI::App& holdout) {
  holdout.add_subcommand("crawl", "(not yet implemented)");
}

}  // namespace evalsuite::cli
