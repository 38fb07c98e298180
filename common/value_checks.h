// What a user types as a number, checked the same way in every command and every plan file: whole numbers within a
// range, finite numbers within a range, seeds (0 to 2^64-1) and TCP ports. Each check reads the text as typed, so
// "-1" is never wrapped to 18446744073709551615, "010" is never octal and "nan" never passes a range. A check
// returns the problem as a phrase ("must be at least 1, got 0"; empty when the value is fine) for the caller to
// put after the option, key or field at fault; cli/light/option_checks.h turns them into CLI11 validators.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace evalsuite {

// A whole number written in decimal ("12", "-3"; no sign for unsigned use, no "0x", no exponent).
std::optional<long long> ParseWholeNumber(const std::string& text);

// "" when `text` is a whole number in [min, max]; else "must be at least 1, got 0", "must be a whole number, got
// '2.5'", "must be between 0 and 65535, got 70000".
std::string WholeNumberProblem(const std::string& text, long long min,
                               long long max = std::numeric_limits<long long>::max());

// The same for a value already read (plan files, JSON fields).
std::string WholeNumberRangeProblem(long long value, long long min, long long max);

// "" when `text` is a finite number in [min, max]; "nan", "inf" and "1e999" are refused by name.
std::string NumberProblem(const std::string& text, double min, double max);
std::string NumberRangeProblem(double value, double min, double max);
// "" when `text` is a finite number above 0 and at most `max`.
std::string PositiveNumberProblem(const std::string& text, double max);

// A seed: a whole number from 0 to 18446744073709551615, written in decimal.
std::string SeedProblem(const std::string& text);
std::optional<uint64_t> ParseSeed(const std::string& text);

// A TCP port to listen on: 0 (any free port) to 65535.
constexpr long long kMaxPort = 65535;
std::string PortProblem(const std::string& text);

}  // namespace evalsuite
