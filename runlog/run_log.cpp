#include "runlog/run_log.h"

#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

namespace evalsuite::runlog {

const char* LogEndName(analysis::EndedAs end) {
  switch (end) {
    case analysis::EndedAs::kReached:
      return "reached";
    case analysis::EndedAs::kNotReached:
      return "not_reached";
    case analysis::EndedAs::kFailed:
      return "failed";
    case analysis::EndedAs::kNoEnd:
      return "incomplete";
  }
  return "incomplete";
}

std::optional<analysis::EndedAs> ParseLogEnd(const std::string& name) {
  for (analysis::EndedAs end : {analysis::EndedAs::kReached, analysis::EndedAs::kNotReached, analysis::EndedAs::kFailed,
                                analysis::EndedAs::kNoEnd}) {
    if (name == LogEndName(end)) return end;
  }
  return std::nullopt;
}

std::string FormatEpoch(double epoch) {
  if (!std::isfinite(epoch)) return fmt::format("{}", epoch);
  const double whole = std::round(epoch);
  // Whole numbers print without a fraction; past 1e15 (no real epoch count) the integer conversion would not
  // be exact, and past 2^63 it would be undefined: printed as a float instead.
  if (std::abs(epoch - whole) < 1e-9 && std::abs(whole) < 1e15) return fmt::format("{}", static_cast<long long>(whole));
  return std::abs(epoch) < 1e15 ? fmt::format("{:.2f}", epoch) : fmt::format("{:g}", epoch);
}

RunEntryName EntryOfRun(const nlohmann::json& header, const std::filesystem::path& file) {
  if (header.is_object()) {
    const auto it = header.find("entry");
    if (it != header.end() && it->is_string() && !it->get<std::string>().empty()) {
      return {it->get<std::string>(), "header"};
    }
  }
  // The folder as the file was named ("runs/a.jsonl"), else as the file system places it ("a.jsonl" in cwd).
  std::filesystem::path folder = file.parent_path().filename();
  if (folder.empty() || folder == "." || folder == "..") {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(file, ec);
    if (!ec) folder = absolute.lexically_normal().parent_path().filename();
  }
  if (!folder.empty() && folder != "." && folder != ".." && folder != "/") return {folder.string(), "folder"};
  return {file.stem().string(), "file name"};
}

std::vector<EntryGroup> GroupRunsByEntry(const std::vector<RunEntryName>& names) {
  std::vector<EntryGroup> groups;
  std::unordered_map<std::string, std::size_t> group_of;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto [it, added] = group_of.emplace(names[i].name, groups.size());
    if (added) groups.push_back({names[i].name, {}});
    groups[it->second].runs.push_back(i);
  }
  return groups;
}

std::string ProgressUnitOf(const nlohmann::json& header) {
  if (header.is_object()) {
    const auto it = header.find(kProgressUnitKey);
    if (it != header.end() && it->is_string() && !it->get<std::string>().empty()) return it->get<std::string>();
  }
  return "epochs";
}

}  // namespace evalsuite::runlog
