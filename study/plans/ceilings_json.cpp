#include "study/plans/ceilings_json.h"

#include <optional>

#include "common/json_fields.h"

namespace evalsuite::study {

CeilingsRecordFacts DecodeCeilingsRecord(const nlohmann::json& record) {
  CeilingsRecordFacts facts;
  if (!record.is_object()) return facts;
  facts.source = OptionalString(record, "source", "machine_ceilings").value_or("");
  facts.where = OptionalString(record, "where", "machine_ceilings").value_or("?");
  facts.has_machine = record.contains("machine");
  return facts;
}

std::string CeilingsMeasuredAtFromJson(const nlohmann::json& machine) {
  if (!machine.is_object()) return "at an unknown time";
  return OptionalString(machine, "measured_at", "machine").value_or("at an unknown time");
}

}  // namespace evalsuite::study
