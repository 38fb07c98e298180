// Which study's entry a command means when it names entries (compare A B, study plan's pilot entries): the one place
// that resolves an entry name, so that an entry is found wherever it is in the store and never guessed.
//   - with --study: the entry must be in that study; when it is not, the error says which studies have it;
//   - without: the study the store's default choice names (store/study_choice.h) when it has every named entry;
//     otherwise each name is looked up across every study of the store, written ENTRY or STUDY/ENTRY, and must be
//     found in exactly one (several: a UsageError listing them as STUDY/ENTRY to choose from).
#pragma once

#include <string>
#include <vector>

#include "store/run_store.h"

namespace evalsuite::store {

struct EntryLocation {
  StudyInfo study;
  std::string entry;  // the entry's name in that study
};

enum class MissingEntry { kRefuse, kLeaveOut };

// One location per name, in order. UsageError naming the entry, the studies searched and where it is instead; with
// kLeaveOut, a name no study has is left out of the result instead (an ambiguous one is still refused).
std::vector<EntryLocation> LocateEntries(RunStore& store, const std::vector<std::string>& names,
                                         const std::string& study_name_or_id, const std::string& store_name,
                                         MissingEntry missing = MissingEntry::kRefuse);

// The studies of `locations`, each once, in store order.
std::vector<StudyInfo> StudiesOf(const std::vector<EntryLocation>& locations);

}  // namespace evalsuite::store
