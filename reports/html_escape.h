// Escaping for text placed in HTML (and inline SVG) content or quoted attribute values. Every string that
// comes from a user, a log or a store goes through it: entry names are user input.
#pragma once

#include <string>

namespace evalsuite::reports {

// & < > " ' become entities, as does the first slash of "://"; control characters other than tab and
// newline are dropped.
std::string EscapeHtml(const std::string& text);

}  // namespace evalsuite::reports
