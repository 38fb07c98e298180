// One error type for the whole project: what went wrong and where (file, line or field), so a user can act
// on it. Library boundaries convert c10::Error, cv::Exception, curl and SQLite codes into it; main.cpp maps
// it to an exit code in one place (see exit_codes.h). Never thrown for a bug: use it for bad input and I/O.
#pragma once

#include <stdexcept>
#include <string>

namespace evalsuite {

enum class ErrorKind {
  kUsage,     // a command-line option or argument is wrong
  kInput,     // a user-supplied file, config, log, image, request or response is malformed
  kIo,        // a file or connection could not be read or written
  kExternal,  // a child process, library or remote service failed
  kInternal,  // an invariant of evalsuite itself broke
};

class Error : public std::runtime_error {
 public:
  // `where` names the file (with ":line" when known), the option or the config key at fault; may be empty.
  Error(ErrorKind kind, const std::string& where, const std::string& message);

  ErrorKind kind() const { return kind_; }
  const std::string& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  std::string where_;
  std::string message_;
};

inline Error UsageError(const std::string& where, const std::string& message) {
  return Error(ErrorKind::kUsage, where, message);
}
inline Error InputError(const std::string& where, const std::string& message) {
  return Error(ErrorKind::kInput, where, message);
}
inline Error IoError(const std::string& where, const std::string& message) {
  return Error(ErrorKind::kIo, where, message);
}
inline Error ExternalError(const std::string& where, const std::string& message) {
  return Error(ErrorKind::kExternal, where, message);
}

// "file.txt:12: message" style location for line-oriented inputs.
std::string FileLine(const std::string& file, long line);

}  // namespace evalsuite
