#include "labeling/csv_cell.h"

namespace evalsuite::labeling {

std::string CsvField(const std::string& text) {
  const bool formula_like = !text.empty() && std::string("=+-@\t\r'").find(text.front()) != std::string::npos;
  const std::string value = formula_like ? "'" + text : text;
  if (!formula_like && value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvRow(const std::vector<std::string>& fields) {
  std::string row;
  for (std::size_t i = 0; i < fields.size(); ++i) row += (i ? "," : "") + CsvField(fields[i]);
  return row + "\n";
}

}  // namespace evalsuite::labeling
