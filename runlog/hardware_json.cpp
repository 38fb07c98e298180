#include "runlog/hardware_json.h"

#include <string>

#include "common/json_fields.h"

namespace evalsuite::runlog {

HardwareFigures HardwareFiguresFromJson(const nlohmann::json& hardware) {
  HardwareFigures figures;
  if (!hardware.is_object()) return figures;
  figures.achieved_flops = OptionalNumber(hardware, "achieved_flops", "hardware").value_or(0);
  if (const auto time = hardware.find("time"); time != hardware.end() && time->is_object()) {
    figures.evaluation_seconds = OptionalNumber(*time, "evaluation", "hardware.time").value_or(0);
  }
  return figures;
}

}  // namespace evalsuite::runlog
