// RenderJson and WriteReport: the model's canonical JSON text, and the three report files on disk.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>

#include "common/atomic_file.h"
#include "common/error.h"
#include "reports/report.h"
#include "reports/run_curves.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;
using nlohmann::ordered_json;

// nlohmann::json sorts keys; a reader opening report.json should meet the verdict before thousands of points,
// so the written file orders keys by this list (keys not listed follow alphabetically).
constexpr const char* kKeyOrder[] = {
    "schema_version", "title",  "generated_at", "environment", "plan",      "rule",        "points_file",
    "verdicts",       "table",
    "entries",        "entry",  "name",         "index",       "result",    "stable",      "reasons",  "description",
    "source",         "metric", "threshold",    "is_target",   "time_unit", "runs",        "reached",  "status",
    "counted",        "seeds",  "tta",          "time_spent",  "stats",     "sensitivity", "grid",     "thresholds"};

std::size_t Rank(const std::string& key) {
  auto it = std::find_if(std::begin(kKeyOrder), std::end(kKeyOrder), [&](const char* k) { return key == k; });
  return static_cast<std::size_t>(it - std::begin(kKeyOrder));
}

// Only evalsuite's own objects are reordered; user data (plan, environment, seeds, extra, sections made
// elsewhere) keeps plain alphabetical order so that no key of theirs is promoted by accident.
bool IsUserData(const std::string& key) {
  return key == "plan" || key == "environment" || key == "seeds" || key == "extra";
}

ordered_json Ordered(const json& value, bool reorder) {
  if (value.is_array()) {
    ordered_json out = ordered_json::array();
    for (const json& item : value) out.push_back(Ordered(item, reorder));
    return out;
  }
  switch (value.type()) {
    case json::value_t::object:
      break;
    case json::value_t::boolean:
      return value.get<bool>();
    case json::value_t::number_integer:
      return value.get<std::int64_t>();
    case json::value_t::number_unsigned:
      return value.get<std::uint64_t>();
    case json::value_t::number_float:
      return value.get<double>();
    case json::value_t::string:
      return value.get<std::string>();
    default:
      return nullptr;  // null (and binary, which a report model never holds)
  }
  std::vector<std::string> keys;
  for (const auto& item : value.items()) keys.push_back(item.key());
  if (reorder) {
    std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
      return Rank(a) < Rank(b);  // equal ranks keep json's alphabetical order
    });
  }
  ordered_json out = ordered_json::object();
  for (const std::string& key : keys) out[key] = Ordered(value.at(key), reorder && !IsUserData(key));
  return out;
}

}  // namespace

std::string RenderJson(const ReportModel& report) {
  const json model = ToJson(report);
  std::vector<std::string> keys;
  for (const auto& item : model.items()) keys.push_back(item.key());
  std::stable_sort(keys.begin(), keys.end(),
                   [](const std::string& a, const std::string& b) { return Rank(a) < Rank(b); });
  ordered_json out = ordered_json::object();
  for (const std::string& key : keys) {
    // Sections merged from elsewhere (e.g. generalization) keep their producers' key order untouched.
    const bool own = Rank(key) < std::size(kKeyOrder);
    out[key] = Ordered(model.at(key), own && !IsUserData(key));
  }
  return out.dump(2) + "\n";
}

void WriteReport(const ReportModel& model, const std::string& run_points, const std::filesystem::path& out_dir) {
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error || !std::filesystem::is_directory(out_dir)) {
    throw IoError(out_dir.string(), "cannot create the report folder" + (error ? ": " + error.message() : ""));
  }
  // Rendered first, then written together: a kill leaves the old report or the new one, never half a file.
  WriteFilesAtomically({{out_dir / "report.json", RenderJson(model)},
                        {out_dir / kRunPointsFile, run_points},
                        {out_dir / "report.md", RenderMarkdown(model)},
                        {out_dir / "report.html", RenderHtml(model)}});
}

}  // namespace evalsuite::reports
