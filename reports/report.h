// Builds the report model (typed structs, report_model.h) from plain run data and renders it. report.json (ToJson,
// report_json.h, the one serialization) is the canonical output; Markdown and self-contained HTML (inline SVG charts,
// no network) are renderings of the same structs through one outline (report_outline.h). The model opens with the
// verdict per entry, then the Tables 2-3 view, raw per-run values, every statistic, and any extra sections
// (generalization, see generalization_section.h; hardware, hardware_section.h).
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "reports/report_builder.h"
#include "reports/report_input.h"
#include "reports/report_json.h"
#include "reports/report_model.h"
#include "reports/run_curves.h"

namespace evalsuite::reports {

// report.json holds ToJson(model) (report_json.h); its keys and what each means are listed in one place,
// reports/report_json_fields.h (the reference page docs/reference/report-json.md is generated from it, and a test
// checks it against what ToJson writes). Every non-finite or undefined number is null; a run that missed the target
// has tta null, never a capped time; "incomplete" runs are listed with counted=false and left out of every statistic;
// every key of extra_sections is merged at the top level as it is (a key clashing with the others is a UsageError).

// The model as report.json writes it: pretty-printed, top-level keys in reading order (schema_version, title,
// generated_at, environment, plan, rule, verdicts, table, entries, then extra sections), and inside objects the
// identifying keys (entry, name, index...) first; other keys alphabetically.
std::string RenderJson(const ReportModel& report);
std::string RenderMarkdown(const ReportModel& model);
std::string RenderHtml(const ReportModel& model);

// Writes report.json, report-points.jsonl (`run_points`: RunPointsJsonLines of the model's input), report.md and
// report.html into out_dir (created if needed). Throws IoError naming the file that could not be written.
void WriteReport(const ReportModel& model, const std::string& run_points, const std::filesystem::path& out_dir);

}  // namespace evalsuite::reports
