#include "store/study_choice.h"

#include <fmt/format.h>

#include <vector>

#include "common/error.h"

namespace evalsuite::store {
namespace {

std::string Names(const std::vector<StudyInfo>& studies) {
  std::string names;
  for (const auto& s : studies) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

}  // namespace

StudyInfo ChooseStudy(RunStore& store, const std::string& name_or_id, const std::string& store_name,
                      const StudyChoice& choice) {
  std::vector<StudyInfo> studies = store.ListStudies();
  if (studies.empty()) throw UsageError(store_name, "the store holds no study yet");
  if (!name_or_id.empty()) {
    if (auto found = store.FindStudy(name_or_id)) return *found;
    throw UsageError(name_or_id, "no such study in " + store_name + " (studies: " + Names(studies) + ")");
  }
  std::vector<StudyInfo> candidates;
  for (StudyInfo& s : studies) {
    if (choice.kind.empty() || s.kind == choice.kind) candidates.push_back(std::move(s));
  }
  if (choice.only_one && candidates.size() != 1) {
    const std::string names = Names(candidates);
    throw UsageError(choice.option, fmt::format("{} has {} {}{}{}: name one", store_name, candidates.size(),
                                                choice.kind.empty() ? "studies" : "studies of kind " + choice.kind,
                                                names.empty() ? "" : ": ", names));
  }
  if (candidates.empty()) throw UsageError(store_name, "the store holds no study of kind " + choice.kind);
  return candidates.back();
}

}  // namespace evalsuite::store
