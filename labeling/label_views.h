// JSON views the labeling page reads: a store event, a candidate's near-duplicate flags with links to the other
// image, a labeler's standing label on an item, and a class's display name.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "datasets/images/candidate_manifest.h"
#include "labeling/label_store.h"

namespace evalsuite::labeling {

// The first synonym, or the WordNet id when the class has none.
std::string ClassName(const datasets::CandidateClass& c);

nlohmann::json EventJson(const LabelEvent& event);

// `holdout dedupe`'s flags as the page shows them: a match that is another candidate comes with its image URL
// (a reference image lives outside the candidate folder and is named only). `item_index` maps item ids to their
// position in the manifest.
nlohmann::json NearDuplicateFlags(const datasets::Candidate& item, const datasets::CandidateManifest& manifest,
                                  const std::map<std::string, std::size_t>& item_index);

// The labeler's current label on the item ("correct", ...), null when none stands.
nlohmann::json StandingLabel(const std::map<std::pair<std::string, std::string>, Decision>& decisions,
                             const std::string& item, const std::string& labeler);

}  // namespace evalsuite::labeling
