#include "evalsuite/cli/light/run_app.h"

#include <exception>
#include <iostream>

#include "common/environment.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/test_hooks.h"

namespace evalsuite::cli {

void ConfigureApp(CLI::App& app) {
  app.description("evalsuite: is time-to-accuracy stable, and do TTA-optimized models generalize?");
  app.require_subcommand(1);
  app.set_version_flag("--version", EvalsuiteVersion() + " (" + EvalsuiteGitRevision() + ")");
}

int RunApp(CLI::App& app, int argc, char** argv) {
  InstallTestHooks();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  } catch (const Error& e) {
    std::cerr << "evalsuite: error: " << e.what() << "\n";
    return ExitCodeFor(e);
  } catch (const std::exception& e) {
    std::cerr << "evalsuite: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return ExitCode();
}

namespace {
int g_exit_code = kExitOk;  // set at most once per process, by the one command that runs
}  // namespace

void SetExitCode(int code) { g_exit_code = code; }
int ExitCode() { return g_exit_code; }

}  // namespace evalsuite::cli
