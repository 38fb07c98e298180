#include "evalsuite/cli/commands.h"
#include "evalsuite/common/exit_codes.h"

namespace evalsuite::cli {
namespace {
int g_exit_code = kExitOk;  // set at most once per process, by the one command that runs
}
void SetExitCode(int code) { g_exit_code = code; }
int ExitCode() { return g_exit_code; }
}  // namespace evalsuite::cli
