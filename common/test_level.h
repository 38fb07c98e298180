// The level of a statistical test a user gives (--alpha): one check that every command taking it shares (compare,
// study plan), so a level outside (0, 0.5), NaN or infinite included, is refused the same way everywhere, as a
// usage error naming the option, never reaching the statistics as an internal error.
#pragma once

#include <string>

#include "common/error.h"

namespace evalsuite {

inline void CheckTestLevel(double alpha, const std::string& option = "--alpha") {
  if (!(alpha > 0 && alpha < 0.5)) throw UsageError(option, "must lie in (0, 0.5)");
}

}  // namespace evalsuite
