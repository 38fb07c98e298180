#include "evalsuite/cli/commands.h"

namespace evalsuite::cli {

void RegisterHoldoutCommand(CLI::App& app) {
  CLI::App* holdout = app.add_subcommand("holdout", "Build and use a fresh, human-labeled holdout set");
  holdout->require_subcommand(1);
  RegisterHoldoutCrawlCommand(*holdout);
  RegisterHoldoutCandidatesCommand(*holdout);
  RegisterHoldoutDedupeCommand(*holdout);
  RegisterHoldoutFreezeCommand(*holdout);
  RegisterHoldoutEvalCommand(*holdout);
  RegisterHoldoutFashionMnistCommand(*holdout);
}

}  // namespace evalsuite::cli
