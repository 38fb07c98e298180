// Test helper shared by the run-log tests: whether a parsed run log warned about something.
#pragma once

#include <algorithm>
#include <string>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

// True when one of the log's warnings contains `text`.
inline bool HasWarning(const RunLog& log, const std::string& text) {
  return std::any_of(log.warnings.begin(), log.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

}  // namespace evalsuite::runlog
