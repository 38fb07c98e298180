// The builder of the report model (report_model.h): from the plain run data of report_input.h to the typed
// structs, entry by entry, then the comparisons and the extra sections. It sits above every section builder it
// asks; report.h renders and writes what it builds.
#pragma once

#include <functional>
#include <string>

#include "reports/report_input.h"
#include "reports/report_model.h"

namespace evalsuite::reports {

constexpr int kReportSchemaVersion = 1;

// The model report.json holds (its keys and rules: report.h). `progress`, when given, hears each step's name as it
// starts ("entry 3 of 20: name", "comparisons").
ReportModel BuildStabilityReport(const StabilityReportInput& input,
                                 const std::function<void(const std::string& step)>& progress = nullptr);

}  // namespace evalsuite::reports
