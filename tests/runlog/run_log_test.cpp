// FormatEpoch: whole epochs print bare, evaluations within an epoch with two decimals.
#include "runlog/run_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace evalsuite::runlog {
namespace {

TEST(FormatEpoch, WholeEpochsBareFractionsWithTwoDecimals) {
  EXPECT_EQ(FormatEpoch(3.0), "3");
  EXPECT_EQ(FormatEpoch(0.25 * 4), "1");
  EXPECT_EQ(FormatEpoch(2.25), "2.25");
  EXPECT_EQ(FormatEpoch(0.5), "0.50");
  EXPECT_EQ(FormatEpoch(12.0 + 1e-12), "12");  // accumulated rounding is not a fraction
}

// Issue 12, item 4: an epoch of 9.2e18 (reachable from a log and the live progress line) was converted to an
// integer out of its range (undefined behaviour; the sanitizer build checks float-cast-overflow).
TEST(FormatEpoch, HugeAndNonFiniteEpochsPrintAsFloats) {
  EXPECT_EQ(FormatEpoch(9.2e18), "9.2e+18");
  EXPECT_EQ(FormatEpoch(-9.3e18), "-9.3e+18");
  EXPECT_EQ(FormatEpoch(1e300), "1e+300");
  EXPECT_EQ(FormatEpoch(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatEpoch(std::nan("")), "nan");
  EXPECT_EQ(FormatEpoch(123456789.0), "123456789");
}

}  // namespace
}  // namespace evalsuite::runlog
