// The one place the binaries read test hooks from their environment. The CLI's end-to-end tests run the real binary
// and must hold it at a chosen moment to kill it there; the code below the CLI offers seams (callbacks) for that and
// never reads the environment for them.
//   EVALSUITE_TEST_WRITE_PAUSE_MS          pause after each MiB an atomic write writes (a slow disk)
//   EVALSUITE_TEST_PAUSE_BEFORE_COMMIT_MS  pause before a study commits each finished run
#pragma once

#include <functional>

namespace evalsuite::cli {

// Sets the process-wide seams (atomic writes) from the environment; RunApp calls it once, before any command runs.
void InstallTestHooks();

// StudyRunOptions::before_commit from the environment; empty when the variable is not set.
std::function<void()> BeforeCommitHook();

}  // namespace evalsuite::cli
