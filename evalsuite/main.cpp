// evalsuite: can a fast training result be trusted? Builds the command line, runs one subcommand, and maps
// the outcome to an exit code (evalsuite/common/exit_codes.h). Everything else lives in the libraries.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "evalsuite/cli/commands.h"
#include "evalsuite/common/environment.h"
#include "evalsuite/common/error.h"
#include "evalsuite/common/exit_codes.h"
#include "evalsuite/common/onednn_isa_cap.h"

int main(int argc, char** argv) {
  // Before anything can start LibTorch or a child process: cap oneDNN where this CPU lists instructions it
  // does not execute (AMX on some Sapphire Rapids VMs), so training, evaluation and external entries run.
  evalsuite::PrepareOneDnnForThisMachine();
  CLI::App app{"evalsuite: is time-to-accuracy stable, and do TTA-optimized models generalize?"};
  app.require_subcommand(1);
  app.set_version_flag("--version", evalsuite::EvalsuiteVersion() + " (" + evalsuite::EvalsuiteGitRevision() + ")");
  namespace cli = evalsuite::cli;
  cli::RegisterEntriesCommand(app);
  cli::RegisterTrainCommand(app);
  cli::RegisterStudyCommand(app);
  cli::RegisterReportCommand(app);
  cli::RegisterImportCommand(app);
  cli::RegisterHoldoutCommand(app);
  cli::RegisterLabelCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? evalsuite::kExitOk : evalsuite::kExitUsage;
  } catch (const evalsuite::Error& e) {
    std::cerr << "evalsuite: error: " << e.what() << "\n";
    return evalsuite::ExitCodeFor(e);
  } catch (const std::exception& e) {
    std::cerr << "evalsuite: internal error: " << e.what() << "\n";
    return evalsuite::kExitInternal;
  }
  return cli::ExitCode();
}
