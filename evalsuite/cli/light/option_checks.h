// CLI11 validators for numbers on the command line, built from common/value_checks.h so that every command
// refuses a wrong number with the same words as a plan file does: "--runs: must be at least 1, got 0" instead of
// CLI11's "Value 0 not in range 0.000000 to 1.797693e+308", and "--seed: must not be negative" instead of a seed
// stored as 18446744073709551615. Every numeric option of every command takes one of these.
#pragma once

#include <CLI/CLI.hpp>
#include <limits>

namespace evalsuite::cli {

// A whole number in [min, max], written in decimal.
CLI::Validator WholeNumber(long long min, long long max = std::numeric_limits<long long>::max());
// A finite number in [min, max]: nan and inf are refused.
CLI::Validator FiniteNumber(double min = -std::numeric_limits<double>::infinity(),
                            double max = std::numeric_limits<double>::infinity());
// A finite number above 0 and at most max.
CLI::Validator PositiveNumber(double max = std::numeric_limits<double>::infinity());
// A seed: 0 to 2^64-1.
CLI::Validator SeedNumber();
// A port to listen on: 0 (any free port) to 65535.
CLI::Validator PortNumber();

}  // namespace evalsuite::cli
