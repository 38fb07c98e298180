#include "store/run_models.h"

#include <map>
#include <utility>

#include "analysis/run_counting.h"

namespace evalsuite::store {

RunModelSelection SelectRunModels(RunStore& store, const StudyInfo& study, const std::string& which) {
  // The counted runs of each entry (analysis/run_counting.h: the latest counted attempt of each run index).
  std::vector<RunRecord> runs = store.LoadRuns(study.id);
  std::map<std::string, std::vector<std::size_t>> positions;
  std::map<std::string, std::vector<analysis::AttemptKey>> keys;
  const bool resumable = study.kind == "study";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    positions[runs[i].entry].push_back(i);
    keys[runs[i].entry].push_back({runs[i].run_index, runs[i].attempt, StatusOf(runs[i], resumable)});
  }
  std::map<std::pair<std::string, int>, RunRecord> latest;
  for (const auto& [entry, entry_keys] : keys) {
    for (std::size_t k : analysis::CountedPositions(entry_keys)) {
      RunRecord& run = runs[positions[entry][k]];
      if (!run.run_dir.empty()) latest[{run.entry, run.run_index}] = std::move(run);
    }
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
