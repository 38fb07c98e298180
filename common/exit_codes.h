// Exit codes of the evalsuite binary, in one place so scripts can tell outcomes apart.
#pragma once

#include "common/error.h"

namespace evalsuite {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;       // the command could not do its job (bad input, I/O, external failure)
constexpr int kExitUsage = 2;         // wrong options or arguments
constexpr int kExitWithWarnings = 3;  // done, but some input was skipped with a warning (e.g. import)
constexpr int kExitSomeFailed = 4;    // done for some items, others failed and are reported (e.g. a model)
constexpr int kExitInternal = 70;     // a bug in evalsuite

int ExitCodeFor(const Error& error);

}  // namespace evalsuite
