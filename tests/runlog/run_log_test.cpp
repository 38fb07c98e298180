// FormatEpoch: whole epochs print bare, evaluations within an epoch with two decimals.
#include "evalsuite/runlog/run_log.h"

#include <gtest/gtest.h>

namespace evalsuite::runlog {
namespace {

TEST(FormatEpoch, WholeEpochsBareFractionsWithTwoDecimals) {
  EXPECT_EQ(FormatEpoch(3.0), "3");
  EXPECT_EQ(FormatEpoch(0.25 * 4), "1");
  EXPECT_EQ(FormatEpoch(2.25), "2.25");
  EXPECT_EQ(FormatEpoch(0.5), "0.50");
  EXPECT_EQ(FormatEpoch(12.0 + 1e-12), "12");  // accumulated rounding is not a fraction
}

}  // namespace
}  // namespace evalsuite::runlog
