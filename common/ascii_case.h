// ASCII lower case for names the code compares without case (file names, column headers, metric and folder names):
// bytes outside A-Z are kept as they are, so UTF-8 text passes through unchanged. One definition, so that unity
// batches never meet two (a second local `Lower` in one batch is a redefinition).
#pragma once

#include <string>

namespace evalsuite {

inline std::string AsciiLowercase(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace evalsuite
