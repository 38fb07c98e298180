#include "runlog/run_header_json.h"

#include "common/error.h"

namespace evalsuite::runlog {

std::string HeaderMetricFromJson(const nlohmann::json& header, const std::string& where) {
  if (!header.is_object()) return "metric";
  const auto it = header.find("metric");
  if (it == header.end()) return "metric";
  if (!it->is_string())
    throw InputError(where + ": header.metric", "must be the metric's name, a string, not " + it->dump());
  return it->get<std::string>();
}

}  // namespace evalsuite::runlog
