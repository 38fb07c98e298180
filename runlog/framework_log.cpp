#include "runlog/framework_log.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace csv_detail {

std::string TrimCell(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}

char SeparatorOf(const std::string& header) {
  if (header.find(',') != std::string::npos) return ',';
  if (header.find('\t') != std::string::npos) return '\t';
  if (header.find(';') != std::string::npos) return ';';
  return ',';
}

}  // namespace csv_detail

const char* TimeBasisName(TimeBasis basis) {
  switch (basis) {
    case TimeBasis::kSeconds:
      return "seconds";
    case TimeBasis::kEpochs:
      return "epochs";
    case TimeBasis::kSteps:
      return "steps";
  }
  return "seconds";
}

std::vector<std::string> SplitCsvLine(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == separator) {
      fields.push_back(csv_detail::TrimCell(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  fields.push_back(csv_detail::TrimCell(cell));
  return fields;
}

CsvTable ReadCsvTable(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  // Column names and cells reach JSON (headers, warnings): invalid UTF-8 is repaired first.
  std::string text = ToValidUtf8(buffer.str());
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  CsvTable table;
  char separator = ',';
  long line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    // A logical line: a quoted field may hold a newline (Python's csv writes one inside quotes).
    const long first_line = ++line_no;
    std::string line;
    bool quoted = false;
    for (; pos < text.size(); ++pos) {
      const char c = text[pos];
      if (c == '"') quoted = !quoted;
      if (c == '\n') {
        if (!quoted) {
          ++pos;
          break;
        }
        ++line_no;
      }
      line += c;
    }
    if (quoted) throw InputError(FileLine(file.string(), first_line), "a quoted field is never closed");
    if (csv_detail::TrimCell(line).empty()) continue;
    if (table.header.empty()) {
      separator = csv_detail::SeparatorOf(line);
      table.header = SplitCsvLine(line, separator);
      continue;
    }
    table.rows.push_back({SplitCsvLine(line, separator), first_line});
  }
  return table;
}

std::optional<double> CsvNumber(const std::string& cell) {
  if (cell.empty() || cell == "NA" || cell == "None" || cell == "null") return std::nullopt;
  const char* begin = cell.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  if (end == begin || *end != '\0') return std::nullopt;
  return v;
}

std::string FirstLineOf(const fs::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  std::string line;
  char c;
  while (line.size() < limit && in.get(c) && c != '\n') line += c;
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
  while (!line.empty() && line.back() == '\r') line.pop_back();
  return ToValidUtf8(line);
}

}  // namespace evalsuite::runlog
