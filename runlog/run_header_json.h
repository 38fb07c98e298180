// Facts decoded from a run log's header (RunLog::header, each format's reader fills it) where a reader above the
// run-log formats needs them: the metric's name.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite::runlog {

// The header's "metric" (the metric's name, e.g. "val_top1"); "metric" when the header names none. A "metric" that
// is not a string is an InputError naming `where` (the log's file) and header.metric.
std::string HeaderMetricFromJson(const nlohmann::json& header, const std::string& where);

}  // namespace evalsuite::runlog
