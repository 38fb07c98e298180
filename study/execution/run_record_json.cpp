#include "study/execution/run_record_json.h"

#include "common/json_fields.h"

namespace evalsuite::study {

RecordedStudyName RecordedStudyNameFromJson(const nlohmann::json& study) {
  RecordedStudyName out;
  if (!study.is_object()) return out;
  out.name = OptionalString(study, "name", "run record: study");
  out.store = OptionalString(study, "store", "run record: study");
  return out;
}

}  // namespace evalsuite::study
