// One markup table shared by the Markdown and HTML renderers (as hyperfine's exporters share theirs), so the
// two files always show the same rows. Cells are plain text; each renderer escapes them for its format. Only the
// type: every section builds its own tables (the report model's own are model_tables.h's).
#pragma once

#include <string>
#include <vector>

namespace evalsuite::reports {

struct ReportTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> emphasized;  // per row (may be shorter than rows): the row to notice, e.g. the target's
};

}  // namespace evalsuite::reports
