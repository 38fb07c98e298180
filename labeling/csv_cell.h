// CSV cells for label exports that a spreadsheet opens safely. RFC 4180 quoting, and OWASP's CSV-injection
// rule: a cell starting with '=', '+', '-', '@', tab or carriage return would run as a formula, so it gets a
// leading single quote (and is quoted). The value stays recoverable: a cell that starts with a single quote
// always had one added (a value that itself starts with one gets a second), so a reader drops exactly one
// leading quote to get the stored value back.
#pragma once

#include <string>
#include <vector>

namespace evalsuite::labeling {

std::string CsvField(const std::string& text);
std::string CsvRow(const std::vector<std::string>& fields);  // fields joined by ',' and a trailing "\n"

}  // namespace evalsuite::labeling
