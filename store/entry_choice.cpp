#include "store/entry_choice.h"

#include <algorithm>
#include <set>

#include "common/error.h"
#include "store/study_choice.h"

namespace evalsuite::store {
namespace {

bool HasEntry(RunStore& store, const StudyInfo& study, const std::string& entry) {
  const std::vector<EntryRecord> entries = store.LoadEntries(study.id);
  return std::any_of(entries.begin(), entries.end(), [&](const EntryRecord& e) { return e.name == entry; });
}

std::string EntryNames(RunStore& store, const StudyInfo& study) {
  std::string names;
  for (const EntryRecord& e : store.LoadEntries(study.id)) names += (names.empty() ? "" : ", ") + e.name;
  return names.empty() ? "none" : names;
}

// Every (study, entry) the name can mean: ENTRY in any study, or STUDY/ENTRY.
std::vector<EntryLocation> Candidates(RunStore& store, const std::vector<StudyInfo>& studies, const std::string& name) {
  std::vector<EntryLocation> found;
  for (const StudyInfo& s : studies) {
    if (HasEntry(store, s, name)) found.push_back({s, name});
    const std::string prefix = s.name + "/";
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
      const std::string entry = name.substr(prefix.size());
      if (HasEntry(store, s, entry)) found.push_back({s, entry});
    }
  }
  return found;
}

std::string Listed(const std::vector<EntryLocation>& locations) {
  std::string text;
  for (const EntryLocation& l : locations) text += (text.empty() ? "" : ", ") + l.study.name + "/" + l.entry;
  return text;
}

}  // namespace

std::vector<EntryLocation> LocateEntries(RunStore& store, const std::vector<std::string>& names,
                                         const std::string& study_name_or_id, const std::string& store_name,
                                         MissingEntry missing) {
  const std::vector<StudyInfo> studies = store.ListStudies();
  if (!study_name_or_id.empty()) {
    const StudyInfo chosen = ChooseStudy(store, study_name_or_id, store_name);
    std::vector<EntryLocation> located;
    for (const std::string& name : names) {
      if (HasEntry(store, chosen, name)) {
        located.push_back({chosen, name});
        continue;
      }
      if (missing == MissingEntry::kLeaveOut) continue;
      std::string elsewhere;
      const std::vector<EntryLocation> others = Candidates(store, studies, name);
      if (!others.empty()) {
        elsewhere = "; it is in " + Listed(others) + ": name that study with --study, or leave --study out to " +
                    "compare entries of several studies";
      }
      throw UsageError(name, "no such entry in study '" + chosen.name + "' of " + store_name +
                                 " (entries: " + EntryNames(store, chosen) + ")" + elsewhere);
    }
    return located;
  }
  // The default study, when it has every entry named: what every reading command reads without --study.
  const StudyInfo preferred = ChooseStudy(store, "", store_name);
  if (std::all_of(names.begin(), names.end(), [&](const std::string& n) { return HasEntry(store, preferred, n); })) {
    std::vector<EntryLocation> located;
    located.reserve(names.size());
    for (const std::string& name : names) located.push_back({preferred, name});
    return located;
  }
  std::vector<EntryLocation> located;
  for (const std::string& name : names) {
    const std::vector<EntryLocation> found = Candidates(store, studies, name);
    if (found.size() == 1) {
      located.push_back(found.front());
      continue;
    }
    if (found.empty()) {
      if (missing == MissingEntry::kLeaveOut) continue;
      std::string all;
      for (const StudyInfo& s : studies) all += (all.empty() ? "" : "; ") + s.name + ": " + EntryNames(store, s);
      throw UsageError(name, "no entry of that name in any study of " + store_name + " (" + all + ")");
    }
    throw UsageError(name, "several studies of " + store_name + " have an entry '" + name + "' (" + Listed(found) +
                               "): name one as STUDY/ENTRY, or choose the study with --study");
  }
  return located;
}

std::vector<StudyInfo> StudiesOf(const std::vector<EntryLocation>& locations) {
  std::vector<StudyInfo> studies;
  std::set<int64_t> seen;
  std::vector<EntryLocation> sorted = locations;
  std::sort(sorted.begin(), sorted.end(),
            [](const EntryLocation& x, const EntryLocation& y) { return x.study.id < y.study.id; });
  for (const EntryLocation& l : sorted) {
    if (seen.insert(l.study.id).second) studies.push_back(l.study);
  }
  return studies;
}

}  // namespace evalsuite::store
