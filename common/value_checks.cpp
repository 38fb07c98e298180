#include "common/value_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace evalsuite {
namespace {

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

std::string Shown(double value) {
  std::ostringstream out;
  out.precision(15);
  out << value;
  return out.str();
}

// The range as a user reads it: "at least 1", "at most 10", "between 0 and 65535".
std::string RangeWords(const std::string& min, const std::string& max, bool has_min, bool has_max) {
  if (has_min && has_max) return "between " + min + " and " + max;
  if (has_min) return "at least " + min;
  if (has_max) return "at most " + max;
  return "a number";
}

bool AllDigits(const std::string& text, std::size_t from) {
  if (from >= text.size()) return false;
  for (std::size_t i = from; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<long long> ParseWholeNumber(const std::string& text) {
  const std::size_t digits_from = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (!AllDigits(text, digits_from)) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0') return std::nullopt;
  return value;
}

std::string WholeNumberRangeProblem(long long value, long long min, long long max) {
  if (value >= min && value <= max) return "";
  const bool has_min = min != std::numeric_limits<long long>::min();
  const bool has_max = max != std::numeric_limits<long long>::max();
  return "must be " + RangeWords(std::to_string(min), std::to_string(max), has_min, has_max) + ", got " +
         std::to_string(value);
}

std::string WholeNumberProblem(const std::string& text, long long min, long long max) {
  const std::optional<long long> value = ParseWholeNumber(text);
  if (!value) {
    const std::size_t from = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (AllDigits(text, from)) {  // digits, but too many for a 64-bit integer
      const bool has_max = max != std::numeric_limits<long long>::max();
      return "must be " + RangeWords(std::to_string(min), std::to_string(max), true, has_max) + ", got " + text;
    }
    return "must be a whole number, got " + Quoted(text);
  }
  return WholeNumberRangeProblem(*value, min, max);
}

std::string NumberRangeProblem(double value, double min, double max) {
  if (std::isnan(value)) return "must be a number, got nan";
  const bool has_min = std::isfinite(min), has_max = std::isfinite(max);
  if (!std::isfinite(value)) {
    return "must be a finite number" +
           (has_min || has_max ? " " + RangeWords(Shown(min), Shown(max), has_min, has_max) : std::string()) +
           ", got " + Shown(value);
  }
  if (value >= min && value <= max) return "";
  return "must be " + RangeWords(Shown(min), Shown(max), has_min, has_max) + ", got " + Shown(value);
}

std::string NumberProblem(const std::string& text, double min, double max) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return "must be a number, got " + Quoted(text);
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return "must be a number, got " + Quoted(text);
  if (std::isnan(value)) return "must be a number, got " + Quoted(text);
  if (errno == ERANGE && std::isinf(value)) return "must be a finite number, got " + text;
  return NumberRangeProblem(value, min, max);
}

std::string PositiveNumberProblem(const std::string& text, double max) {
  std::string problem = NumberProblem(text, -std::numeric_limits<double>::infinity(), max);
  if (!problem.empty()) return problem;
  const double value = std::strtod(text.c_str(), nullptr);
  if (value > 0) return "";
  return "must be above 0" + (std::isfinite(max) ? " and at most " + Shown(max) : std::string()) + ", got " + text;
}

std::optional<uint64_t> ParseSeed(const std::string& text) {
  if (!AllDigits(text, 0)) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0') return std::nullopt;
  return static_cast<uint64_t>(value);
}

std::string SeedProblem(const std::string& text) {
  if (ParseSeed(text)) return "";
  const std::string range =
      "a seed is a whole number from 0 to " + std::to_string(std::numeric_limits<uint64_t>::max());
  if (!text.empty() && text[0] == '-' && AllDigits(text, 1)) return "must not be negative (" + range + "), got " + text;
  if (AllDigits(text, 0)) return "is too large (" + range + "), got " + text;
  return "must be a whole number (" + range + "), got " + Quoted(text);
}

std::string PortProblem(const std::string& text) {
  std::string problem = WholeNumberProblem(text, 0, kMaxPort);
  return problem.empty() ? "" : problem + " (0: any free port)";
}

}  // namespace evalsuite
