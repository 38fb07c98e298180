// Builds the canonical report model (JSON) from plain run data and renders it. JSON is the truth; Markdown and
// self-contained HTML (inline SVG charts, no network) are renderings of the same model. The model opens with
// the verdict per entry, then the Tables 2-3 view, raw per-run values, every statistic, and any extra
// sections (generalization, see generalization_section.h).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "reports/report_input.h"

namespace evalsuite::reports {

constexpr int kReportSchemaVersion = 1;

nlohmann::json BuildStabilityReport(const StabilityReportInput& input);

std::string RenderMarkdown(const nlohmann::json& model);
std::string RenderHtml(const nlohmann::json& model);

// Writes report.json, report.md and report.html into out_dir (created if needed). Throws IoError naming
// the file that could not be written.
void WriteReport(const nlohmann::json& model, const std::filesystem::path& out_dir);

}  // namespace evalsuite::reports
