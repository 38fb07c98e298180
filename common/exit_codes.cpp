#include "common/exit_codes.h"

namespace evalsuite {

int ExitCodeFor(const Error& error) {
  switch (error.kind()) {
    case ErrorKind::kUsage:
      return kExitUsage;
    case ErrorKind::kInternal:
      return kExitInternal;
    default:
      return kExitFailure;
  }
}

}  // namespace evalsuite
