#include "evalsuite/cli/light/test_hooks.h"

#include <chrono>
#include <cstdlib>
#include <thread>

#include "common/atomic_file.h"

namespace evalsuite::cli {
namespace {

// A pause of the variable's milliseconds; empty when it is unset or not positive.
std::function<void()> PauseFrom(const char* variable) {
  const char* value = std::getenv(variable);
  const int ms = value == nullptr ? 0 : std::atoi(value);
  if (ms <= 0) return {};
  return [ms] { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
}

}  // namespace

void InstallTestHooks() { SetAfterChunkWrittenForTests(PauseFrom("EVALSUITE_TEST_WRITE_PAUSE_MS")); }

std::function<void()> BeforeCommitHook() { return PauseFrom("EVALSUITE_TEST_PAUSE_BEFORE_COMMIT_MS"); }

}  // namespace evalsuite::cli
