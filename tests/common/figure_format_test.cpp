// Issue 50 item 9: every printed figure shows at least three significant digits (common/figure_format.h). `study
// show` printed a TTA of 0.2275 epochs as "0.2 epochs" and 0.029 s and 0.049 s both as "0.0 s".
#include "common/figure_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace evalsuite {
namespace {

// Significant digits shown by a fixed-notation figure: digits after the leading zeros, sign and point aside.
int SignificantDigits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

TEST(FigureFormatTest, TheIssuesFiguresKeepThreeDigits) {
  EXPECT_EQ(FormatFigure(0.2275), "0.2275");
  EXPECT_EQ(FormatFigure(0.029), "0.0290");
  EXPECT_EQ(FormatFigure(0.049), "0.0490");
  EXPECT_NE(FormatFigure(0.029), FormatFigure(0.049));
}

TEST(FigureFormatTest, BandsAboveOneKeepTheirDigits) {
  EXPECT_EQ(FormatFigure(12345.6), "12346");
  EXPECT_EQ(FormatFigure(1234.4), "1234");
  EXPECT_EQ(FormatFigure(123.44), "123.4");
  EXPECT_EQ(FormatFigure(12.344), "12.34");
  EXPECT_EQ(FormatFigure(1.5), "1.50");
  EXPECT_EQ(FormatFigure(0), "0.00");
  EXPECT_EQ(FormatFigure(-0.0012345), "-0.00123");
  EXPECT_EQ(FormatFigure(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatFigure(std::nan("")), "nan");
}

TEST(FigureFormatTest, AtLeastThreeSignificantDigitsAtEveryScale) {
  for (double v = 1.234567e-7; v < 1e7; v *= 3.7) {
    SCOPED_TRACE(v);
    EXPECT_GE(SignificantDigits(FormatFigure(v)), kMinSignificantDigits) << FormatFigure(v);
    EXPECT_GE(SignificantDigits(FormatShareAsPercent(v / 1e7)), kMinSignificantDigits) << FormatShareAsPercent(v / 1e7);
    // The figure read back is the value to within half a unit of its third significant digit.
    const double back = std::stod(FormatFigure(v));
    EXPECT_NEAR(back, v, 0.5 * std::pow(10.0, std::floor(std::log10(v)) - 2) * (1 + 1e-9));
  }
}

TEST(FigureFormatTest, SharesAsPercentages) {
  EXPECT_EQ(FormatShareAsPercent(1.0), "100.0%");
  EXPECT_EQ(FormatShareAsPercent(0.5), "50.0%");
  EXPECT_EQ(FormatShareAsPercent(0.0523), "5.23%");
  EXPECT_EQ(FormatShareAsPercent(0.00213), "0.213%");  // GIGABYTE resnet's CoV, printed as "0.2%" before
  EXPECT_EQ(FormatShareAsPercent(0), "0.0%");
  EXPECT_EQ(FormatShareAsPercent(0.0523, 2), "5.23%");
  EXPECT_EQ(FormatShareAsPercent(0.5, 2), "50.00%");
}

}  // namespace
}  // namespace evalsuite
