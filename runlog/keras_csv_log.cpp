#include "runlog/keras_csv_log.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace keras_detail {

char HeaderSeparator(const std::string& line) {
  if (line.find(',') != std::string::npos) return ',';
  if (line.find('\t') != std::string::npos) return '\t';
  if (line.find(';') != std::string::npos) return ';';
  return ',';
}

}  // namespace keras_detail

bool LooksLikeKerasHeader(const std::string& header_line) {
  const std::vector<std::string> columns = SplitCsvLine(header_line, keras_detail::HeaderSeparator(header_line));
  if (columns.size() < 2 || columns.front() != "epoch") return false;
  if (std::find(columns.begin(), columns.end(), "step") != columns.end()) return false;  // Lightning's
  return std::is_sorted(columns.begin() + 1, columns.end());
}

std::vector<FrameworkRun> ReadKerasCsv(const fs::path& file) {
  const CsvTable table = ReadCsvTable(file);
  if (table.header.empty() || table.header.front() != "epoch") {
    throw InputError(FileLine(file.string(), 1), "not a Keras CSVLogger file: the first column is not \"epoch\"");
  }
  std::vector<FrameworkRun> runs;
  std::vector<std::pair<long, long>> spans;  // first and last line of each run
  double previous_epoch = -1;
  bool header_again = false;
  std::vector<std::string> header = table.header;  // a later fit may write a header of its own keys
  for (const CsvTable::Row& row : table.rows) {
    const std::string where = FileLine(file.string(), row.line);
    if (!row.fields.empty() && row.fields.front() == "epoch") {  // a header written again: a new run begins
      header = row.fields;
      header_again = true;
      continue;
    }
    if (row.fields.size() > header.size()) {
      throw InputError(where,
                       fmt::format("{} fields, but the header names {} columns", row.fields.size(), header.size()));
    }
    const std::optional<double> epoch = CsvNumber(row.fields.front());
    if (!epoch) throw InputError(where, "the epoch column holds \"" + row.fields.front() + "\", not a number");
    if (runs.empty() || header_again || (*epoch == 0 && previous_epoch >= 0)) {
      runs.emplace_back();
      spans.push_back({row.line, row.line});
      header_again = false;
    }
    previous_epoch = *epoch;
    FrameworkRun& run = runs.back();
    spans.back().second = row.line;
    run.progress_spent = std::max(run.progress_spent, *epoch + 1);
    for (std::size_t i = 1; i < header.size(); ++i) {
      const std::string cell = i < row.fields.size() ? row.fields[i] : std::string();
      const std::optional<double> value = CsvNumber(cell);
      if (!value) {
        if (!cell.empty() && cell != "NA") {
          run.warnings.push_back(
              fmt::format("{}: column {} holds \"{}\", not a number; skipped", where, header[i], cell));
        }
        continue;
      }
      run.series[header[i]].push_back({*epoch + 1, *epoch + 1, *value, row.line});
    }
  }
  if (runs.empty()) runs.emplace_back();
  if (spans.empty()) spans.push_back({0, 0});
  for (std::size_t k = 0; k < runs.size(); ++k) {
    FrameworkRun& run = runs[k];
    run.format = "keras";
    run.source = file;
    run.basis = TimeBasis::kEpochs;
    run.basis_rule = "the epoch column + 1 (epochs trained at each epoch-end row; Keras counts from 0)";
    run.label = runs.size() == 1 ? file.string()
                                 : fmt::format("{} (run {} of {}, lines {}-{})", file.string(), k + 1, runs.size(),
                                               spans[k].first, spans[k].second);
  }
  return runs;
}

}  // namespace evalsuite::runlog
