#include "study/execution/run_record_json.h"

#include "common/error.h"

namespace evalsuite::study {
namespace {

std::optional<std::string> RecordedStudyTextIn(const nlohmann::json& study, const char* key) {
  const auto it = study.find(key);
  if (it == study.end()) return std::nullopt;
  if (!it->is_string()) throw InputError(std::string("run record: study.") + key, "must be a string");
  return it->get<std::string>();
}

}  // namespace

RecordedStudyName RecordedStudyNameFromJson(const nlohmann::json& study) {
  RecordedStudyName out;
  if (!study.is_object()) return out;
  out.name = RecordedStudyTextIn(study, "name");
  out.store = RecordedStudyTextIn(study, "store");
  return out;
}

}  // namespace evalsuite::study
