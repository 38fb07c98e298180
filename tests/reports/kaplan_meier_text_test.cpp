// The Kaplan-Meier median as the report prints it: an upper bound the data cannot estimate is said so, with the
// number of runs, not printed as "∞" (R prints NA there).
#include <gtest/gtest.h>

#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

TEST(KaplanMeierMedianText, AnUnboundedUpperLimitIsNotEstimableNotInfinity) {
  stats::KaplanMeierCurve km;
  km.median = 20.0;
  km.median_lower = 15.5;  // the upper band never reaches one half: no median_upper
  const std::string text = KaplanMeierMedianText(km, 5);
  EXPECT_EQ(text.find("∞"), std::string::npos) << text;
  EXPECT_NE(text.find("upper bound not estimable with 5 runs"), std::string::npos) << text;
  stats::KaplanMeierCurve bounded;
  bounded.median = 22.0;
  bounded.median_lower = 10.0;
  bounded.median_upper = 35.0;
  EXPECT_EQ(KaplanMeierMedianText(bounded, 10), FormatMagnitudeInterval(22.0, 10.0, 35.0));
}

}  // namespace
}  // namespace evalsuite::reports
