// RenderJson and WriteReport: the model's canonical JSON text, and the three report files on disk.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

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
    "schema_version", "title",   "generated_at", "environment", "plan",      "rule",      "points_file",
    "verdicts",       "table",   "entries",      "entry",       "name",      "index",     "result",
    "stable",         "reasons", "description",  "source",      "metric",    "threshold", "is_target",
    "time_unit",      "runs",    "reached",      "status",      "counted",   "seeds",     "tta",
    "time_spent",     "stats",   "sensitivity",  "grid",        "thresholds"};

// A key's place in kKeyOrder (its size when not listed). A hash lookup: RenderJson asks once per key of every
// object, and 100,000 runs make millions of keys (a scan of the list per comparison of a sort was a quarter of such
// a report's time).
std::size_t Rank(const std::string& key) {
  static const std::unordered_map<std::string_view, std::size_t> kRanks = [] {
    std::unordered_map<std::string_view, std::size_t> ranks;
    for (std::size_t i = 0; i < std::size(kKeyOrder); ++i) ranks.emplace(kKeyOrder[i], i);
    return ranks;
  }();
  const auto it = kRanks.find(key);
  return it == kRanks.end() ? std::size(kKeyOrder) : it->second;
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
  // (rank, member) in json's alphabetical order; a stable sort by rank keeps that order among equal ranks.
  std::vector<std::pair<std::size_t, json::object_t::const_pointer>> members;
  members.reserve(value.size());
  for (const auto& member : value.get_ref<const json::object_t&>()) {
    members.emplace_back(reorder ? Rank(member.first) : 0, &member);
  }
  if (reorder) {
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  ordered_json out = ordered_json::object();
  // The keys are unique already: appended to ordered_map's vector directly, not through operator[], whose search
  // for an existing key is linear.
  auto& object = out.get_ref<ordered_json::object_t&>();
  object.reserve(members.size());
  for (const auto& [rank, member] : members) {
    object.push_back({member->first, Ordered(member->second, reorder && !IsUserData(member->first))});
  }
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
