#include "study/plans/toml_depth.h"

#include "common/error.h"

namespace evalsuite::study {

void CheckTomlDepth(std::string_view text, const std::string& source_name) {
  long line = 1;
  int brackets = 0;    // [ and { open across lines (arrays and inline tables)
  int key_parts = 1;   // parts of the dotted key or header being read
  bool in_key = true;  // at the start of a line, before '=': a key or a [header]
  char quote = 0;      // inside '...' or "..." (multi-line strings count their quotes alike)
  auto fail = [&](const char* what) {
    throw InputError(FileLine(source_name, line),
                     std::string(what) + " deeper than " + std::to_string(kMaxTomlDepth) + " levels");
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      if (quote == 0 && brackets == 0) {
        in_key = true;
        key_parts = 1;
      }
      continue;
    }
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    switch (c) {
      case '"':
      case '\'':
        quote = c;
        break;
      case '#':
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        break;
      case '.':
        if (in_key && ++key_parts > kMaxTomlDepth) fail("a dotted key or table header is nested");
        break;
      case '=':
        if (brackets == 0 || in_key) in_key = false;
        key_parts = 1;
        break;
      case '[':
      case '{':
        if (++brackets > kMaxTomlDepth + 2) fail("arrays or inline tables are nested");  // +2: [[header]]
        if (c == '{') {
          in_key = true;  // an inline table's keys follow
          key_parts = 1;
        }
        break;
      case ']':
      case '}':
        if (brackets > 0) --brackets;
        break;
      case ',':
        key_parts = 1;
        break;
      default:
        break;
    }
  }
}

}  // namespace evalsuite::study
