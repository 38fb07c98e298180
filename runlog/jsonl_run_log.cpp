#include "runlog/jsonl_run_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/error.h"
#include "common/json_access.h"
#include "common/json_guard.h"
#include "runlog/declared_hardware.h"
#include "runlog/non_finite_words.h"
#include "runlog/run_log_checks.h"

namespace evalsuite::runlog {
namespace {

using nlohmann::json;

std::optional<double> NumberField(const json& record, const char* key) {
  auto it = record.find(key);
  if (it == record.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// Python's json module writes float('nan') and float('inf') as the bare words NaN, Infinity and -Infinity, which
// JSON does not have. For a header line (its other facts are worth keeping) the words outside strings become
// marked strings (non_finite_words.h), so the line parses and each such field can be named and dropped.
constexpr char kNonFiniteMark = '\x01';

// Drops the header's marked fields with a warning each; nested ones become null.
void DropNonFiniteFields(json& value, const std::string& path, const std::string& where,
                         std::vector<std::string>& warnings) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      const std::string field = path.empty() ? it.key() : path + "." + it.key();
      if (it->is_string() && !it->get<std::string>().empty() && it->get<std::string>()[0] == kNonFiniteMark) {
        warnings.push_back(where + ": header field \"" + field + "\" is " + it->get<std::string>().substr(1) +
                           ", not a JSON number; ignored");
        if (path.empty()) {
          it = value.erase(it);
          continue;
        }
        *it = nullptr;
      } else {
        DropNonFiniteFields(*it, field, where, warnings);
      }
      ++it;
    }
  } else if (value.is_array()) {
    for (json& item : value) {
      if (item.is_string() && !item.get<std::string>().empty() && item.get<std::string>()[0] == kNonFiniteMark) {
        warnings.push_back(where + ": header field \"" + path + "\" holds " + item.get<std::string>().substr(1) +
                           ", not a JSON number; replaced by null");
        item = nullptr;
      } else {
        DropNonFiniteFields(item, path, where, warnings);
      }
    }
  }
}

}  // namespace

// Over clang-tidy's complexity limit since the declared-scale checks joined the record loop; moving them into a
// second pass is its own change, checked by the run-log fuzz corpus.
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
RunLog ParseJsonlRunLog(const std::string& text, const std::string& source_name, std::string* scale_error) {
  RunLog run;
  std::istringstream in(text);
  std::string line;
  long line_number = 0;
  bool saw_end = false;
  const bool ends_with_newline = !text.empty() && text.back() == '\n';
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = FileLine(source_name, line_number);
    std::string parse_error;
    json record = TryParseUserJson(line, parse_error);
    bool marked_non_finite = false;
    if (record.is_discarded() && line.find("\"header\"") != std::string::npos) {
      std::string marked_error;
      json marked = TryParseUserJson(QuoteNonFiniteWords(line, "\\u0001"), marked_error);
      if (marked.is_object() && marked.contains("type") && marked["type"] == "header") {
        record = std::move(marked);
        marked_non_finite = true;
      }
    }
    if (record.is_discarded() || !record.is_object()) {
      const bool last_line = in.peek() == EOF;
      run.warnings.push_back(where + (last_line && !ends_with_newline && parse_error.find("nested") == std::string::npos
                                          ? ": truncated final line skipped (the run was interrupted mid-write)"
                                      : !parse_error.empty() ? ": " + parse_error + "; line skipped"
                                                             : ": not a JSON object; line skipped"));
      continue;
    }
    const auto type_field = record.find("type");
    if (type_field == record.end() || !type_field->is_string()) {
      run.warnings.push_back(where + ": \"type\" must be a string (header, eval or end); line skipped");
      continue;
    }
    const std::string type = type_field->get<std::string>();
    if (type == "header") {
      if (marked_non_finite) DropNonFiniteFields(record, "", where, run.warnings);
      run.header = record;
      run.header.erase("type");
      ReadDeclaredHardware(run.header, where, &run.warnings);
    } else if (type == "eval") {
      auto epoch = NumberField(record, "epoch");
      auto train_seconds = NumberField(record, "train_seconds");
      auto metric = NumberField(record, "metric");
      if (!epoch || !train_seconds || !metric) {
        run.warnings.push_back(where +
                               ": eval record needs numeric \"epoch\", \"train_seconds\" and \"metric\"; "
                               "line skipped");
        continue;
      }
      EvalPoint point;
      point.epoch = *epoch;
      point.train_seconds = *train_seconds;
      point.wall_seconds = NumberField(record, "wall_seconds").value_or(*train_seconds);
      point.metric = *metric;
      point.train_loss = NumberField(record, "train_loss");
      point.line = line_number;
      run.points.push_back(point);
    } else if (type == "end") {
      const auto status_field = record.find("status");
      auto status = status_field != record.end() && status_field->is_string()
                        ? ParseLogEnd(status_field->get<std::string>())
                        : std::nullopt;
      if (!status) {
        run.warnings.push_back(where +
                               ": end record has an unknown \"status\" (expected reached, not_reached or "
                               "failed); line skipped");
        continue;
      }
      saw_end = true;
      run.status = *status;
      run.train_seconds = NumberField(record, "train_seconds").value_or(0);
      run.wall_seconds = NumberField(record, "wall_seconds").value_or(0);
      if (auto hardware = record.find("hardware"); hardware != record.end() && hardware->is_object()) {
        run.hardware = *hardware;
      }
      if (record.contains("error") && record["error"].is_string()) run.error = record["error"];
    } else {
      run.warnings.push_back(where + ": unknown record type \"" + type + "\"; line skipped");
    }
  }
  if (!saw_end) run.status = analysis::EndedAs::kNoEnd;
  const std::optional<MetricScale> scale = DeclaredMetricScale(run.header, source_name, &run.warnings);
  if (scale_error != nullptr && scale && !run.points.empty()) {
    std::size_t off = 0;
    for (const EvalPoint& p : run.points) {
      if (std::isfinite(p.metric) && (p.metric < scale->low || p.metric > scale->high)) ++off;
    }
    if (off == run.points.size()) {
      const double example = run.points.front().metric;
      const bool declared = run.header.contains("metric_range");
      const auto metric_field = run.header.find("metric");
      const std::string metric_name = metric_field != run.header.end() && metric_field->is_string()
                                          ? metric_field->get<std::string>()
                                          : std::string("the metric");
      const bool looks_percent = !declared && std::all_of(run.points.begin(), run.points.end(), [](const EvalPoint& p) {
        return p.metric >= 0 && p.metric <= 100;
      });
      *scale_error = fmt::format(
          "{}: every evaluation of {} ({} of {}, the first {:g}) lies off its declared scale, {}; the header field "
          "\"metric_range\" declares the scale{}{}; the run could not be read (it did not fail)",
          source_name, metric_name, off, run.points.size(), example, scale->name,
          declared ? " (it says " + run.header["metric_range"].dump() + ")" : " (absent: a fraction in [0, 1])",
          looks_percent ? ": the values look like percentages, so write \"metric_range\": [0, 100]" : "");
    }
  }
  CheckRunLog(run, source_name, scale);
  if (run.train_seconds <= 0 && !run.points.empty()) run.train_seconds = run.points.back().train_seconds;
  if (run.wall_seconds <= 0 && !run.points.empty()) run.wall_seconds = run.points.back().wall_seconds;
  return run;
}

RunLog ReadJsonlRunLog(const std::filesystem::path& file, std::string* scale_error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open run log");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw IoError(file.string(), "read error");
  return ParseJsonlRunLog(buffer.str(), file.string(), scale_error);
}

JsonlRunLogWriter::JsonlRunLogWriter(const std::filesystem::path& file) : file_(file) {
  if (file.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
  }
  out_.open(file, std::ios::binary | std::ios::trunc);
  if (!out_) throw IoError(file.string(), "cannot open the run log for writing");
}

void JsonlRunLogWriter::WriteLine(const json& record) {
  out_ << record.dump() << '\n';
  out_.flush();
  if (!out_) throw IoError(file_.string(), "write to the run log failed");
}

void JsonlRunLogWriter::WriteHeader(const json& header) {
  json record = {{"type", "header"}, {"schema_version", kJsonlSchemaVersion}};
  record.update(header);
  WriteLine(record);
}

void JsonlRunLogWriter::WriteEval(const EvalPoint& point, const json& extra) {
  json record = {{"type", "eval"},
                 {"epoch", point.epoch},
                 {"train_seconds", point.train_seconds},
                 {"wall_seconds", point.wall_seconds},
                 {"metric", point.metric}};
  if (point.train_loss) record["train_loss"] = *point.train_loss;
  record.update(extra);
  WriteLine(record);
}

void JsonlRunLogWriter::WriteEnd(analysis::EndedAs status, std::optional<double> tta_seconds, double epochs,
                                 double train_seconds, double wall_seconds, const std::string& error,
                                 const json& extra) {
  json record = {{"type", "end"},    {"status", LogEndName(status)},   {"tta_seconds", JsonOrNull(tta_seconds)},
                 {"epochs", epochs}, {"train_seconds", train_seconds}, {"wall_seconds", wall_seconds}};
  if (!error.empty()) record["error"] = error;
  for (const auto& [key, value] : extra.items()) {
    if (!record.contains(key)) record[key] = value;
  }
  WriteLine(record);
}

}  // namespace evalsuite::runlog
