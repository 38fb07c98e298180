#include "common/error.h"

namespace evalsuite {
namespace {
std::string Compose(const std::string& where, const std::string& message) {
  return where.empty() ? message : where + ": " + message;
}
}  // namespace

Error::Error(ErrorKind kind, const std::string& where, const std::string& message)
    : std::runtime_error(Compose(where, message)), kind_(kind), where_(where), message_(message) {}

std::string FileLine(const std::string& file, long line) { return file + ":" + std::to_string(line); }

}  // namespace evalsuite
