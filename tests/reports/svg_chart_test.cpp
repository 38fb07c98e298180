#include "reports/svg_chart.h"

#include <gtest/gtest.h>

namespace evalsuite::reports {
namespace {

TEST(SvgChartTest, NiceTicksUseOneTwoFiveSteps) {
  EXPECT_EQ(NiceTicks(0, 100, 5), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(0, 1, 5), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  EXPECT_TRUE(NiceTicks(1, 1, 5).empty());
}

TEST(SvgChartTest, NiceDomainWidensToTicksAndAroundASingleValue) {
  EXPECT_EQ(NiceDomain(3, 97, 5), (std::pair<double, double>{0, 100}));
  auto single = NiceDomain(5, 5, 5);
  EXPECT_LT(single.first, 5);
  EXPECT_GT(single.second, 5);
}

TEST(SvgChartTest, TickLabelsShowTheDigitsTheStepNeeds) {
  EXPECT_EQ(FormatTick(20, 20, TickStyle::kNumber), "20");
  EXPECT_EQ(FormatTick(0.925, 0.0025, TickStyle::kNumber), "0.9250");
  EXPECT_EQ(FormatTick(0.5, 0.25, TickStyle::kNumber), "0.50");
  EXPECT_EQ(FormatTick(0.4, 0.2, TickStyle::kPercent), "40%");
}

TEST(SvgChartTest, ChartIsTaggedAndEscaped) {
  SvgChart chart("kaplan-meier", 100, 50, "a <b> title");
  chart.SetAttribute("data-entry", "\"x\"");
  chart.Text(1, 2, "<tick>");
  std::string svg = chart.Finish();
  EXPECT_EQ(svg.rfind("<svg class=\"chart\" data-chart=\"kaplan-meier\" data-entry=\"&quot;x&quot;\"", 0), 0u);
  EXPECT_NE(svg.find("<title>a &lt;b&gt; title</title>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;tick&gt;"), std::string::npos);
}

}  // namespace
}  // namespace evalsuite::reports
