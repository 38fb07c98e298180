// The study a command means, for every command that reads a store (study show/resume, report, holdout eval
// --models-from-store): by name or id; without one, the only candidate, else the latest (or, where a command must
// not guess, an error asking to name one).
#pragma once

#include <string>

#include "store/run_store.h"

namespace evalsuite::store {

struct StudyChoice {
  std::string kind;                // only studies of this kind ("study", "import"); empty: any
  bool only_one = false;           // unnamed and several candidates: a UsageError naming them instead of the latest
  std::string option = "--study";  // the option that names a study, in that error
};

// Throws UsageError naming the choices when the store has none, the name is unknown, or (only_one) it is ambiguous.
StudyInfo ChooseStudy(RunStore& store, const std::string& name_or_id, const std::string& store_name,
                      const StudyChoice& choice = {});

}  // namespace evalsuite::store
