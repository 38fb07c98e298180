#include "labeling/candidate_fields_json.h"

#include "common/json_fields.h"

namespace evalsuite::labeling {
namespace {

nlohmann::json CandidateNumberIn(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? *it : nlohmann::json(nullptr);
}

}  // namespace

NearDuplicateFlag NearDuplicateFlagFromJson(const nlohmann::json& flag) {
  NearDuplicateFlag out;
  if (!flag.is_object()) return out;
  out.kind = OptionalString(flag, "kind", "near_duplicates[]").value_or("");
  out.match = OptionalString(flag, "match", "near_duplicates[]").value_or("");
  out.distance = CandidateNumberIn(flag, "distance");
  out.similarity = CandidateNumberIn(flag, "similarity");
  return out;
}

std::string CandidateClassListFromJson(const nlohmann::json& source) {
  if (!source.is_object()) return "imagenet-1k";
  return OptionalString(source, "class_list", "source").value_or("imagenet-1k");
}

}  // namespace evalsuite::labeling
