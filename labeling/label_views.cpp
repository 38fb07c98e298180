#include "labeling/label_views.h"

#include "labeling/candidate_fields_json.h"
#include "labeling/safe_path.h"

namespace evalsuite::labeling {
using nlohmann::json;

std::string ClassName(const datasets::CandidateClass& c) { return c.synonyms.empty() ? c.wnid : c.synonyms.front(); }

json EventJson(const LabelEvent& event) {
  json out = {{"seq", event.seq},
              {"item", event.item_id},
              {"labeler", event.labeler},
              {"action", event.is_undo ? "undo" : "label"},
              {"label", LabelName(event.label)},
              {"time", event.time},
              {"seconds", event.seconds}};
  if (event.is_undo) out["undoes"] = event.undoes;
  if (!event.image_sha256.empty()) out["image_sha256"] = event.image_sha256;
  if (!event.displayed_at.empty()) out["displayed_at"] = event.displayed_at;
  return out;
}

json NearDuplicateFlags(const datasets::Candidate& item, const datasets::CandidateManifest& manifest,
                        const std::map<std::string, std::size_t>& item_index) {
  json flags = json::array();
  if (!item.near_duplicates.is_array()) return flags;
  for (const json& flag : item.near_duplicates) {
    if (!flag.is_object()) continue;
    // Strings where present: LoadCandidateManifest checked them.
    const NearDuplicateFlag decoded = NearDuplicateFlagFromJson(flag);
    json out = {{"kind", decoded.kind}, {"match", decoded.match}};
    if (!decoded.distance.is_null()) out["distance"] = decoded.distance;
    if (!decoded.similarity.is_null()) out["similarity"] = decoded.similarity;
    const auto other = item_index.find(decoded.match);
    if (other != item_index.end()) {
      out["image"] = "/images/" + PercentEncode(manifest.items[other->second].path, /*keep_slash=*/true);
    }
    flags.push_back(out);
  }
  return flags;
}

json StandingLabel(const std::map<std::pair<std::string, std::string>, Decision>& decisions, const std::string& item,
                   const std::string& labeler) {
  const auto found = decisions.find({item, labeler});
  if (found == decisions.end()) return nullptr;
  return LabelName(found->second.label);
}
}  // namespace evalsuite::labeling
