// The number checks every command and plan file uses (common/value_checks.h): the text as typed is what
// is judged, so a sign, a base prefix, a fraction or nan never slips through a conversion.
#include "common/value_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace evalsuite {
namespace {

TEST(ValueChecksTest, WholeNumbersInRange) {
  EXPECT_EQ(WholeNumberProblem("1", 1, 10), "");
  EXPECT_EQ(WholeNumberProblem("10", 1, 10), "");
  EXPECT_EQ(WholeNumberProblem("0", 1), "must be at least 1, got 0");
  EXPECT_EQ(WholeNumberProblem("0", 1, 10), "must be between 1 and 10, got 0");
  EXPECT_EQ(WholeNumberProblem("11", 1, 10), "must be between 1 and 10, got 11");
  EXPECT_EQ(WholeNumberProblem("-1", 0), "must be at least 0, got -1");
  EXPECT_EQ(WholeNumberProblem("2.5", 1), "must be a whole number, got '2.5'");
  EXPECT_EQ(WholeNumberProblem("0x10", 1), "must be a whole number, got '0x10'");  // strtol base 0 read 16
  EXPECT_EQ(WholeNumberProblem("", 1), "must be a whole number, got ''");
  EXPECT_EQ(WholeNumberProblem(" 3", 1), "must be a whole number, got ' 3'");
  EXPECT_EQ(WholeNumberProblem("1e3", 1), "must be a whole number, got '1e3'");
  EXPECT_EQ(WholeNumberProblem("010", 1, 100), "");  // decimal ten, not octal eight
  EXPECT_EQ(ParseWholeNumber("010"), 10);
  EXPECT_EQ(WholeNumberProblem("99999999999999999999", 1, 100), "must be between 1 and 100, got 99999999999999999999");
  EXPECT_EQ(WholeNumberRangeProblem(5, 1, 3), "must be between 1 and 3, got 5");
}

TEST(ValueChecksTest, FiniteNumbersInRange) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(NumberProblem("0.5", 0, 1), "");
  EXPECT_EQ(NumberProblem("1e-3", 0, 1), "");
  EXPECT_EQ(NumberProblem("nan", 0, 1), "must be a number, got 'nan'");
  EXPECT_EQ(NumberProblem("NaN", -inf, inf), "must be a number, got 'NaN'");
  EXPECT_EQ(NumberProblem("inf", 0, inf), "must be a finite number at least 0, got inf");
  EXPECT_EQ(NumberProblem("1e999", 0, inf), "must be a finite number, got 1e999");
  EXPECT_EQ(NumberProblem("-0.1", 0, 1), "must be between 0 and 1, got -0.1");
  EXPECT_EQ(NumberProblem("abc", 0, 1), "must be a number, got 'abc'");
  EXPECT_EQ(NumberProblem("1x", 0, 1), "must be a number, got '1x'");
  EXPECT_EQ(NumberRangeProblem(std::nan(""), 0, 1), "must be a number, got nan");
  EXPECT_EQ(PositiveNumberProblem("0", inf), "must be above 0, got 0");
  EXPECT_EQ(PositiveNumberProblem("0", 1), "must be above 0 and at most 1, got 0");
  EXPECT_EQ(PositiveNumberProblem("2", 1), "must be at most 1, got 2");
  EXPECT_EQ(PositiveNumberProblem("0.3", 1), "");
}

TEST(ValueChecksTest, SeedsCoverTheWholeUnsignedRangeAndNothingElse) {
  EXPECT_EQ(SeedProblem("0"), "");
  EXPECT_EQ(SeedProblem("18446744073709551615"), "");
  EXPECT_EQ(ParseSeed("18446744073709551615"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(SeedProblem("-1"),
            "must not be negative (a seed is a whole number from 0 to 18446744073709551615), got -1");
  EXPECT_EQ(SeedProblem("18446744073709551616"),
            "is too large (a seed is a whole number from 0 to 18446744073709551615), got 18446744073709551616");
  EXPECT_EQ(SeedProblem("+5"),
            "must be a whole number (a seed is a whole number from 0 to 18446744073709551615), "
            "got '+5'");
  EXPECT_FALSE(ParseSeed("0x1"));
  EXPECT_FALSE(ParseSeed(""));
}

TEST(ValueChecksTest, Ports) {
  EXPECT_EQ(PortProblem("0"), "");
  EXPECT_EQ(PortProblem("65535"), "");
  EXPECT_EQ(PortProblem("65536"), "must be between 0 and 65535, got 65536 (0: any free port)");
  EXPECT_EQ(PortProblem("-1"), "must be between 0 and 65535, got -1 (0: any free port)");
  EXPECT_EQ(PortProblem("http"), "must be a whole number, got 'http' (0: any free port)");
}

}  // namespace
}  // namespace evalsuite
