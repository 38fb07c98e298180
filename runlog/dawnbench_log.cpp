#include "runlog/dawnbench_log.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/run_log_checks.h"

namespace evalsuite::runlog {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Tab-separated as DAWNBench asks; a line without tabs (hand-edited, or copied from the README, which shows
// spaces) is split on runs of blanks.
std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  if (line.find('\t') != std::string_view::npos) {
    std::size_t start = 0;
    for (;;) {
      const std::size_t tab = line.find('\t', start);
      fields.push_back(Trim(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start)));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
  } else {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\r')) ++i;
      const std::size_t b = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\r') ++i;
      if (i > b) fields.push_back(line.substr(b, i - b));
    }
  }
  return fields;
}

std::optional<double> ParseNumber(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

std::string ReadWholeFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw IoError(file.string(), "read error");
  return buffer.str();
}

std::string TaskFromPath(const std::filesystem::path& tsv_file) {
  std::filesystem::path folder = tsv_file.parent_path();
  if (EqualsIgnoreCase(folder.filename().string(), "train")) folder = folder.parent_path();
  const std::string name = folder.filename().string();
  for (const char* task : {"CIFAR10", "ImageNet", "SQuAD"}) {
    if (EqualsIgnoreCase(name, task)) return task;
  }
  return "";
}

}  // namespace

std::optional<DawnbenchTaskRule> DawnbenchRuleForTask(const std::string& task) {
  if (EqualsIgnoreCase(task, "CIFAR10")) return DawnbenchTaskRule{"CIFAR10", "top1Accuracy", 94.0, 0.01};
  if (EqualsIgnoreCase(task, "ImageNet")) return DawnbenchTaskRule{"ImageNet", "top5Accuracy", 93.0, 0.01};
  if (EqualsIgnoreCase(task, "SQuAD")) return DawnbenchTaskRule{"SQuAD", "f1Score", 0.73, 1.0};
  return std::nullopt;
}

std::optional<double> DawnbenchRow::Column(const std::string& name) const {
  if (EqualsIgnoreCase(name, "top1Accuracy")) return top1;
  if (EqualsIgnoreCase(name, "top5Accuracy")) return top5;
  if (EqualsIgnoreCase(name, "f1Score")) return f1;
  if (EqualsIgnoreCase(name, "hours")) return hours;
  if (EqualsIgnoreCase(name, "epoch")) return epoch;
  return std::nullopt;
}

std::optional<std::string> DawnbenchEntry::InfoString(const char* key) const {
  auto it = info.find(key);
  if (it == info.end() || it->is_null()) return std::nullopt;
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::optional<double> DawnbenchEntry::CostPerHour() const {
  auto it = info.find("costPerHour");
  if (it == info.end()) return std::nullopt;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    std::string_view s = Trim(it->get_ref<const std::string&>());
    if (!s.empty() && s.front() == '$') s.remove_prefix(1);
    return ParseNumber(s);
  }
  return std::nullopt;
}

std::optional<double> DawnbenchEntry::TimeToAccuracyHours(const std::string& column, double threshold) const {
  for (const DawnbenchRow& row : rows) {
    std::optional<double> value = row.Column(column);
    if (value && *value >= threshold) return row.hours;
  }
  return std::nullopt;
}

DawnbenchEntry ParseDawnbenchTsv(const std::string& text, const std::string& source_name) {
  DawnbenchEntry entry;
  entry.tsv_file = source_name;
  std::string_view rest(text);
  if (rest.substr(0, kBom.size()) == kBom) rest.remove_prefix(kBom.size());

  enum Column { kEpoch, kHours, kTop1, kTop5, kF1, kColumnCount };
  static constexpr const char* kNames[kColumnCount] = {"epoch", "hours", "top1Accuracy", "top5Accuracy", "f1Score"};
  int index[kColumnCount] = {-1, -1, -1, -1, -1};
  bool have_header = false;
  std::size_t needed_fields = 0;
  long line_number = 0;

  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ++line_number;
    if (Trim(line).empty()) continue;  // blank lines (with or without \r) carry nothing
    const std::vector<std::string_view> fields = SplitFields(line);
    if (!have_header) {
      have_header = true;
      for (std::size_t i = 0; i < fields.size(); ++i) {
        std::string_view name = fields[i];
        if (name.substr(0, kBom.size()) == kBom) name.remove_prefix(kBom.size());
        entry.columns.emplace_back(name);
        for (int c = 0; c < kColumnCount; ++c) {
          if (EqualsIgnoreCase(name, kNames[c]) && index[c] < 0) index[c] = static_cast<int>(i);
        }
      }
      if (index[kHours] < 0) {
        throw InputError(FileLine(source_name, line_number),
                         "the header has no \"hours\" column (found: " + std::string(line) + ")");
      }
      for (int c = 0; c < kColumnCount; ++c) {
        if (index[c] >= 0) needed_fields = std::max(needed_fields, static_cast<std::size_t>(index[c]) + 1);
      }
      continue;
    }
    const std::string where = FileLine(source_name, line_number);
    if (fields.size() < needed_fields) {
      entry.warnings.push_back(where + ": expected " + std::to_string(needed_fields) + " fields, found " +
                               std::to_string(fields.size()) + "; row skipped");
      continue;
    }
    DawnbenchRow row;
    row.line = line_number;
    std::optional<double> values[kColumnCount];
    bool ok = true;
    for (int c = 0; c < kColumnCount && ok; ++c) {
      if (index[c] < 0) continue;
      values[c] = ParseNumber(fields[static_cast<std::size_t>(index[c])]);
      if (!values[c]) {
        entry.warnings.push_back(where + ": " + kNames[c] + " \"" +
                                 std::string(fields[static_cast<std::size_t>(index[c])]) +
                                 "\" is not a number; row skipped");
        ok = false;
      }
    }
    if (!ok) continue;
    row.epoch = values[kEpoch];
    row.hours = *values[kHours];
    row.top1 = values[kTop1];
    row.top5 = values[kTop5];
    row.f1 = values[kF1];
    entry.rows.push_back(row);
  }
  if (!have_header) throw InputError(source_name, "empty TSV: no header line");
  return entry;
}

DawnbenchEntry ReadDawnbenchEntry(const std::filesystem::path& tsv_file) {
  // Invalid UTF-8 read as U+FFFD here, so that no raw byte reaches a warning, the store or the JSON output.
  std::string tsv = ReadWholeFile(tsv_file);
  const bool tsv_repaired = !IsValidUtf8(tsv);
  if (tsv_repaired) tsv = ToValidUtf8(tsv);
  DawnbenchEntry entry = ParseDawnbenchTsv(tsv, tsv_file.string());
  if (tsv_repaired) entry.warnings.push_back(tsv_file.string() + ": invalid UTF-8 bytes read as U+FFFD");
  entry.name = tsv_file.stem().string();
  std::filesystem::path json_file = tsv_file;
  json_file.replace_extension(".json");
  std::error_code ec;
  if (std::filesystem::is_regular_file(json_file, ec)) {
    entry.json_file = json_file.string();
    std::string text = ToValidUtf8(ReadWholeFile(json_file));
    if (std::string_view(text).substr(0, kBom.size()) == kBom) text.erase(0, kBom.size());
    std::string parse_error;
    nlohmann::json info = TryParseUserJson(text, parse_error);
    if (info.is_discarded() || !info.is_object()) {
      entry.warnings.push_back(entry.json_file + ": " + (parse_error.empty() ? "not a JSON object" : parse_error) +
                               "; the entry's author, model, hardware and cost are unknown");
    } else {
      entry.info = std::move(info);
    }
  } else {
    entry.warnings.push_back(tsv_file.string() + ": no " + json_file.filename().string() +
                             " beside it; the entry's author, model, hardware and cost are unknown");
  }
  entry.task = TaskFromPath(tsv_file);
  if (entry.task.empty()) {
    auto has = [&](const char* name) {
      return std::any_of(entry.columns.begin(), entry.columns.end(),
                         [&](const std::string& c) { return EqualsIgnoreCase(c, name); });
    };
    entry.task = has("f1Score") ? "SQuAD" : has("top5Accuracy") ? "ImageNet" : has("top1Accuracy") ? "CIFAR10" : "";
  }
  return entry;
}

RunLog ToRunLog(const DawnbenchEntry& entry, const std::string& column, double threshold, double scale) {
  RunLog log;
  log.header = {{"format", "dawnbench"},   {"file", entry.tsv_file}, {"entry", entry.name},   {"task", entry.task},
                {"metric_column", column}, {"threshold", threshold}, {"metric_scale", scale}, {"info", entry.info}};
  std::optional<double> tta;
  for (std::size_t i = 0; i < entry.rows.size(); ++i) {
    const DawnbenchRow& row = entry.rows[i];
    std::optional<double> value = row.Column(column);
    if (!value) continue;
    EvalPoint point;
    point.epoch = row.epoch.value_or(static_cast<double>(i + 1));
    point.train_seconds = row.hours * 3600.0;
    point.wall_seconds = point.train_seconds;
    point.metric = *value * scale;
    point.line = row.line;
    log.points.push_back(point);
  }
  log.warnings = entry.warnings;
  // Accuracies and F1 are fractions once scaled (a percent column / 100).
  CheckRunLog(log, entry.tsv_file, column.empty() ? std::nullopt : std::optional<MetricScale>(FractionScale()));
  for (const EvalPoint& p : log.points) {
    if (!tta && p.metric >= threshold * scale) tta = p.train_seconds;
  }
  log.status = tta ? analysis::EndedAs::kReached : analysis::EndedAs::kNotReached;
  log.train_seconds = log.points.empty() ? 0.0 : log.points.back().train_seconds;
  for (const EvalPoint& p : log.points) log.train_seconds = std::max(log.train_seconds, p.train_seconds);
  log.wall_seconds = log.train_seconds;
  return log;
}

}  // namespace evalsuite::runlog
