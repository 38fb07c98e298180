// DAWNBench train entries: a JSON file (author, model, hardware, framework, costPerHour...) with a TSV beside it
// holding one row per evaluation. Columns are found by header name in any order; a byte-order mark, CRLF line
// ends, blank lines, repeated or fractional epochs and a missing final newline are all read as real files have.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "runlog/run_log.h"

namespace evalsuite::runlog {

// DAWNBench's training tasks and their rules: which column is judged and the target (in the column's units).
struct DawnbenchTaskRule {
  std::string task;      // "CIFAR10", "ImageNet", "SQuAD"
  std::string column;    // "top1Accuracy", "top5Accuracy", "f1Score"
  double threshold = 0;  // 94 (%), 93 (%), 0.73 (fraction)
  double scale = 1;      // column value * scale = fraction (0.01 for percent columns)
};
// CIFAR10 top-1 >= 94 %, ImageNet top-5 >= 93 %, SQuAD F1 >= 0.73; nullopt for an unknown task name.
std::optional<DawnbenchTaskRule> DawnbenchRuleForTask(const std::string& task);

struct DawnbenchRow {
  long line = 0;  // 1-based line in the TSV
  std::optional<double> epoch;
  double hours = 0;
  std::optional<double> top1;  // top1Accuracy
  std::optional<double> top5;  // top5Accuracy
  std::optional<double> f1;    // f1Score
  std::optional<double> Column(const std::string& name) const;
};

struct DawnbenchEntry {
  std::string tsv_file;
  std::string json_file;                           // empty when there is none beside the TSV
  std::string name;                                // file stem, e.g. "dawn_resnet56_1k80-gc_tensorflow"
  std::string task;                                // from the folder (<task>/train/x.tsv) or else guessed from columns
  nlohmann::json info = nlohmann::json::object();  // the entry's JSON as written
  std::vector<std::string> columns;                // header names in file order
  std::vector<DawnbenchRow> rows;                  // in file order (repeated epochs are kept)
  std::vector<std::string> warnings;               // "file:line: why"

  std::optional<std::string> InfoString(const char* key) const;  // author, model, hardware, framework...
  std::optional<double> CostPerHour() const;                     // number or numeric string
  // TTA in hours: `hours` of the first row (file order) whose `column` is at or above `threshold`.
  std::optional<double> TimeToAccuracyHours(const std::string& column, double threshold) const;
};

// Parses TSV bytes. Throws InputError naming the file when the header lacks "hours" (nothing can be timed);
// a malformed row is a warning and is skipped.
DawnbenchEntry ParseDawnbenchTsv(const std::string& text, const std::string& source_name);
// Reads <stem>.tsv and, when present, <stem>.json beside it. Throws IoError naming a file that exists but
// cannot be read; a JSON that does not parse is a warning (the curve is still imported).
DawnbenchEntry ReadDawnbenchEntry(const std::filesystem::path& tsv_file);

// The entry as the shared run type: epoch, train_seconds = wall_seconds = hours * 3600, metric = the column's
// value * `scale` (a fraction); status reached when some row reaches `threshold` (in the column's units).
RunLog ToRunLog(const DawnbenchEntry& entry, const std::string& column, double threshold, double scale);

}  // namespace evalsuite::runlog
