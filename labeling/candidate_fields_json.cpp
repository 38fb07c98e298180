#include "labeling/candidate_fields_json.h"

#include "common/error.h"

namespace evalsuite::labeling {
namespace {

std::string CandidateTextIn(const nlohmann::json& object, const char* key, const std::string& where,
                            const std::string& fallback) {
  const auto it = object.find(key);
  if (it == object.end()) return fallback;
  if (!it->is_string()) throw InputError(where + key, "must be a string, not " + it->dump());
  return it->get<std::string>();
}

nlohmann::json CandidateNumberIn(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? *it : nlohmann::json(nullptr);
}

}  // namespace

NearDuplicateFlag NearDuplicateFlagFromJson(const nlohmann::json& flag) {
  NearDuplicateFlag out;
  if (!flag.is_object()) return out;
  out.kind = CandidateTextIn(flag, "kind", "near_duplicates[].", "");
  out.match = CandidateTextIn(flag, "match", "near_duplicates[].", "");
  out.distance = CandidateNumberIn(flag, "distance");
  out.similarity = CandidateNumberIn(flag, "similarity");
  return out;
}

std::string CandidateClassListFromJson(const nlohmann::json& source) {
  if (!source.is_object()) return "imagenet-1k";
  return CandidateTextIn(source, "class_list", "source.", "imagenet-1k");
}

}  // namespace evalsuite::labeling
