#include "study/plans/ceilings_json.h"

#include <optional>

#include "common/error.h"

namespace evalsuite::study {
namespace {

std::optional<std::string> CeilingsTextIn(const nlohmann::json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (!it->is_string()) throw InputError(where + key, "must be a string, not " + it->dump());
  return it->get<std::string>();
}

}  // namespace

CeilingsRecordFacts DecodeCeilingsRecord(const nlohmann::json& record) {
  CeilingsRecordFacts facts;
  if (!record.is_object()) return facts;
  facts.source = CeilingsTextIn(record, "source", "machine_ceilings.").value_or("");
  facts.where = CeilingsTextIn(record, "where", "machine_ceilings.").value_or("?");
  facts.has_machine = record.contains("machine");
  return facts;
}

std::string CeilingsMeasuredAtFromJson(const nlohmann::json& machine) {
  if (!machine.is_object()) return "at an unknown time";
  return CeilingsTextIn(machine, "measured_at", "machine.").value_or("at an unknown time");
}

}  // namespace evalsuite::study
