// The report's outline, written once: which sections it has, in which order, with which headings, under which
// conditions each appears, and what each holds. RenderHtml and RenderMarkdown (report.h) pass it their markup
// (report_markup.h); report.json stays the canonical model both read.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "reports/report_markup.h"
#include "reports/report_model.h"

namespace evalsuite::reports {

// The top-level sections the model has, in the report's order: the verdict, the Tables 2-3 overview, the entries
// (when there are any), generalization and hardware (when the model holds them), the methods (when listed) and the
// environment.
std::vector<OutlineSection> ReportSections(const ReportModel& model);

// Writes the whole report through `markup`.
void RenderReport(const ReportModel& model, ReportMarkup& markup);

}  // namespace evalsuite::reports
