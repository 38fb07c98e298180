// The models a study's runs left behind, as `holdout eval --models-from-store` evaluates them: of each (entry, run
// index), the latest attempt that counts in the statistics (analysis/run_counting.h) and has
// <run_dir>/model/<which>.pt. So the holdout evaluates the runs the report counts, and no attempt it leaves out
// (interrupted, did not run, died of its environment).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace evalsuite::store {

struct RunModelFile {
  std::string entry;
  int run_index = 0;
  std::filesystem::path file;  // <run_dir>/model/<which>.pt
};

struct RunModelSelection {
  std::vector<RunModelFile> models;  // ordered by entry and run index
  int counted_without_model = 0;     // counted runs with a run folder but no such model (not reached, not kept)
};

// `which`: "at_target" (saved when the run first reached the target) or "final".
RunModelSelection SelectRunModels(RunStore& store, const StudyInfo& study, const std::string& which);

}  // namespace evalsuite::store
