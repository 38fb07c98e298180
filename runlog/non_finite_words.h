// Python's json writes float('nan') and inf as the bare words NaN, Infinity and -Infinity, which JSON lacks. The
// readers of JSON logs (JSON Lines run logs, Hugging Face's trainer_state.json) turn them into strings before parsing,
// so that a log naming them is read and its checks say which value was not a number, instead of the parser refusing
// the whole file.
#pragma once

#include <string>
#include <string_view>

namespace evalsuite::runlog {

// `text` with each bare NaN, Infinity and -Infinity outside a string written as the JSON string "<mark><word>"
// (`mark` as JSON source text, e.g. "\\u0001", or empty); strings and their escapes are left as they are.
std::string QuoteNonFiniteWords(const std::string& text, std::string_view mark);

}  // namespace evalsuite::runlog
