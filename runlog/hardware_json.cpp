#include "runlog/hardware_json.h"

#include <string>

#include "common/error.h"

namespace evalsuite::runlog {
namespace {

double HardwareFigureIn(const nlohmann::json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) return 0;
  if (!it->is_number()) throw InputError(where + key, "must be a number, not " + it->dump());
  return it->get<double>();
}

}  // namespace

HardwareFigures HardwareFiguresFromJson(const nlohmann::json& hardware) {
  HardwareFigures figures;
  if (!hardware.is_object()) return figures;
  figures.achieved_flops = HardwareFigureIn(hardware, "achieved_flops", "hardware.");
  if (const auto time = hardware.find("time"); time != hardware.end() && time->is_object()) {
    figures.evaluation_seconds = HardwareFigureIn(*time, "evaluation", "hardware.time.");
  }
  return figures;
}

}  // namespace evalsuite::runlog
