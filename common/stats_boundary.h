// The boundary between stats/ and user-supplied data. stats/ knows no files or fields: it throws
// std::invalid_argument for input it cannot use (non-finite times, counts that contradict each other). Code that
// feeds it data a user supplied (run logs, imports, a store) computes through StatsOnUserData, naming that data,
// so the user gets an InputError that says which entry or field is at fault (exit 1), never an internal error.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include "common/error.h"

namespace evalsuite {

// Returns compute(); a std::invalid_argument from it becomes InputError(where, its message).
template <typename Compute>
auto StatsOnUserData(const std::string& where, Compute&& compute) -> decltype(std::forward<Compute>(compute)()) {
  try {
    return std::forward<Compute>(compute)();
  } catch (const std::invalid_argument& e) {
    throw InputError(where, e.what());
  }
}

// "entry 'NAME'": how the statistics' boundary names the entry whose runs it computed on.
inline std::string EntryField(const std::string& entry) { return "entry '" + entry + "'"; }

}  // namespace evalsuite
