// The facts read back from a machine ceilings record (ceilings_record.h has its shape) and from the "machine"
// object of a ceilings file, decoded once into named fields. A field of another shape is an InputError naming it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite::study {

struct CeilingsRecordFacts {
  std::string source;        // "measured", "file" or "theoretical"; "" when the record names none
  std::string where = "?";   // what machine the figures are of, in words
  bool has_machine = false;  // the record carries a "machine" object of figures
};

// Anything but an object is an empty record.
CeilingsRecordFacts DecodeCeilingsRecord(const nlohmann::json& record);

// When `evalsuite machine --json` measured the figures ("measured_at"); "at an unknown time" when it does not say.
std::string CeilingsMeasuredAtFromJson(const nlohmann::json& machine);

}  // namespace evalsuite::study
