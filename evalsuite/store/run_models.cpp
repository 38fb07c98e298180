#include "evalsuite/store/run_models.h"

#include <map>
#include <utility>

#include "evalsuite/store/run_counting.h"

namespace evalsuite::store {

RunModelSelection SelectRunModels(RunStore& store, const StudyInfo& study, const std::string& which) {
  std::map<std::pair<std::string, int>, RunRecord> latest;
  for (RunRecord& run : store.LoadRuns(study.id)) {
    if (CountOf(run, study) != RunCount::kCounted || run.run_dir.empty()) continue;
    latest[{run.entry, run.run_index}] = std::move(run);  // attempts come in order: the last one wins
  }
  RunModelSelection selection;
  for (const auto& [key, run] : latest) {
    std::filesystem::path file = std::filesystem::path(run.run_dir) / "model" / (which + ".pt");
    if (!std::filesystem::exists(file)) {
      ++selection.counted_without_model;
      continue;
    }
    selection.models.push_back({run.entry, run.run_index, std::move(file)});
  }
  return selection;
}

}  // namespace evalsuite::store
