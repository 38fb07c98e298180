// The one serialization of the report model (report_model.h) as JSON: ToJson gives the object report.json holds
// (RenderJson, report.h, orders its keys), every non-finite or absent number as null. Nothing reads a model back
// from JSON; tests and tools that check report.json's keys read ToJson's output.
#pragma once

#include <nlohmann/json.hpp>

#include "reports/report_model.h"

namespace evalsuite::reports {

nlohmann::json ToJson(const ReportModel& model);
nlohmann::json ToJson(const EntryModel& entry);
nlohmann::json ToJson(const VerdictModel& verdict);
nlohmann::json ToJson(const TableRowModel& row);
nlohmann::json ToJson(const RunModel& run);
nlohmann::json ToJson(const CurvesModel& curves);

}  // namespace evalsuite::reports
