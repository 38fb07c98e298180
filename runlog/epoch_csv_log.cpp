#include "runlog/epoch_csv_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/ascii_case.h"
#include "common/error.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace epoch_csv_detail {

std::optional<std::size_t> Column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (AsciiLowercase(header[i]) == name) return i;
  }
  return std::nullopt;
}

}  // namespace epoch_csv_detail

bool LooksLikeEpochCsvHeader(const std::string& header_line) {
  const std::vector<std::string> columns = SplitCsvLine(header_line, ',');
  return columns.size() >= 2 && epoch_csv_detail::Column(columns, "epoch").has_value();
}

FrameworkRun ReadEpochCsv(const fs::path& file) {
  using epoch_csv_detail::Column;
  const CsvTable table = ReadCsvTable(file);
  const std::optional<std::size_t> epoch_col = Column(table.header, "epoch");
  if (!epoch_col || table.header.size() < 2) {
    std::string header;
    for (std::size_t i = 0; i < table.header.size() && i < 8; ++i) header += (i ? "," : "") + table.header[i];
    throw InputError(
        FileLine(file.string(), 1),
        "a CSV evalsuite cannot place: its header (\"" + header +
            "\") names no \"epoch\" column, so it is no training log it reads (Keras CSVLogger: "
            "\"epoch\" then sorted metrics; Lightning: \"step\" and \"epoch\"; an epoch-indexed CSV such as "
            "YOLO's results.csv: an \"epoch\" column and metrics)");
  }
  const std::optional<std::size_t> time_col = Column(table.header, "time");
  FrameworkRun run;
  run.format = "epoch-csv";
  run.source = file;
  run.label = file.string();
  bool clock = time_col.has_value();
  std::optional<double> first_epoch;
  struct Row {
    double epoch;
    std::optional<double> time;
    long line;
  };
  std::vector<Row> rows;
  for (const CsvTable::Row& row : table.rows) {
    const std::string where = FileLine(file.string(), row.line);
    if (row.fields.size() > table.header.size()) {
      throw InputError(
          where, fmt::format("{} fields, but the header names {} columns", row.fields.size(), table.header.size()));
    }
    const auto cell = [&](std::size_t i) { return i < row.fields.size() ? row.fields[i] : std::string(); };
    const std::optional<double> epoch = CsvNumber(cell(*epoch_col));
    if (!epoch) throw InputError(where, "the epoch column holds \"" + cell(*epoch_col) + "\", not a number");
    if (!first_epoch) first_epoch = *epoch;
    std::optional<double> time;
    if (time_col) {
      time = CsvNumber(cell(*time_col));
      if (!time) throw InputError(where, "the time column holds \"" + cell(*time_col) + "\", not a number of seconds");
    }
    rows.push_back({*epoch, time, row.line});
  }
  // Epochs trained at each row: YOLOv5 counts from 0, Ultralytics from 1.
  const double shift = first_epoch && *first_epoch == 0 ? 1.0 : 0.0;
  run.basis = clock ? TimeBasis::kSeconds : TimeBasis::kEpochs;
  run.basis_rule = clock ? "the time column (cumulative training seconds at each epoch's end)"
                         : (shift == 1.0 ? "the epoch column + 1 (epochs trained at each row; the file counts from 0)"
                                         : "the epoch column (epochs trained at each row; the file counts from 1)");
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const CsvTable::Row& row = table.rows[k];
    const double epochs = rows[k].epoch + shift;
    const double progress = clock ? *rows[k].time : epochs;
    run.progress_spent = std::max(run.progress_spent, progress);
    for (std::size_t i = 0; i < table.header.size(); ++i) {
      if (i == *epoch_col || (time_col && i == *time_col)) continue;
      const std::string value_cell = i < row.fields.size() ? row.fields[i] : std::string();
      const std::optional<double> value = CsvNumber(value_cell);
      if (!value) {
        if (!value_cell.empty() && value_cell != "NA") {
          run.warnings.push_back(fmt::format("{}: column {} holds \"{}\", not a number; skipped",
                                             FileLine(file.string(), row.line), table.header[i], value_cell));
        }
        continue;
      }
      run.series[table.header[i]].push_back({progress, epochs, *value, row.line});
    }
  }
  return run;
}

}  // namespace evalsuite::runlog
