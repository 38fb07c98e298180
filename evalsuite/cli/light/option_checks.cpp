#include "evalsuite/cli/light/option_checks.h"

#include <cmath>
#include <sstream>
#include <string>

#include "common/value_checks.h"

namespace evalsuite::cli {
namespace {

std::string Bound(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

CLI::Validator WholeNumber(long long min, long long max) {
  std::string description = "INT";
  if (min != std::numeric_limits<long long>::min()) description += " >= " + std::to_string(min);
  if (max != std::numeric_limits<long long>::max()) description += " <= " + std::to_string(max);
  return CLI::Validator([min, max](std::string& text) { return WholeNumberProblem(text, min, max); }, description);
}

CLI::Validator FiniteNumber(double min, double max) {
  std::string description = "NUMBER";
  if (std::isfinite(min)) description += " >= " + Bound(min);
  if (std::isfinite(max)) description += " <= " + Bound(max);
  return CLI::Validator([min, max](std::string& text) { return NumberProblem(text, min, max); }, description);
}

CLI::Validator PositiveNumber(double max) {
  const std::string description = "NUMBER > 0" + (std::isfinite(max) ? " <= " + Bound(max) : std::string());
  return CLI::Validator([max](std::string& text) { return PositiveNumberProblem(text, max); }, description);
}

CLI::Validator SeedNumber() {
  return CLI::Validator([](std::string& text) { return SeedProblem(text); }, "0 <= SEED < 2^64");
}

CLI::Validator PortNumber() {
  return CLI::Validator([](std::string& text) { return PortProblem(text); }, "PORT 0-65535");
}

}  // namespace evalsuite::cli
