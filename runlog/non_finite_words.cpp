#include "runlog/non_finite_words.h"

namespace evalsuite::runlog {

std::string QuoteNonFiniteWords(const std::string& text, std::string_view mark) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
      if (text.compare(i, word.size(), word) == 0) {
        out += '"';
        out += mark;
        out += word;
        out += '"';
        i += word.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

}  // namespace evalsuite::runlog
