// A small inline-SVG chart kit for the HTML report: linear scales with "nice" ticks, panels with axes, grid,
// lines, steps, dots, crosses, whiskers and a legend. Output is a self-contained <svg class="chart"
// data-chart="NAME"> element (no scripts, no external resources) that scales with its container. All text
// passed in is plain and escaped here.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace evalsuite::reports {

// The colour of series i (a colour-blind-friendly qualitative palette, repeating after ten).
std::string SeriesColor(std::size_t i);

// Tick values covering [min, max] at a 1-2-5 step, about `target_count` of them.
std::vector<double> NiceTicks(double min, double max, int target_count);
// [min, max] widened to the enclosing ticks; a zero-width range is widened around its value first.
std::pair<double, double> NiceDomain(double min, double max, int target_count);

enum class TickStyle { kNumber, kPercent };

struct AxisSpec {
  std::string label;
  TickStyle style = TickStyle::kNumber;
  bool ticks = true;  // false: the chart draws its own (categorical) labels
  int tick_count = 6;
};

struct LegendItem {
  enum class Mark { kLine, kDashedLine, kDot, kHollowDot, kCross, kBand };
  std::string label;
  std::string color;
  Mark mark = Mark::kLine;
};

class SvgChart {
 public:
  // `name` becomes data-chart; `title` the accessible name (<title>) of the whole chart.
  SvgChart(std::string name, int width, int height, std::string title);

  int width() const { return width_; }
  int height() const { return height_; }
  // Charts whose height follows their content (rows, legend lines) set it once laid out.
  void set_height(int height) { height_ = height; }
  // Appends markup built by this kit (already escaped).
  void Append(const std::string& markup) { body_ += markup; }
  // A text label; `anchor` is start, middle or end.
  void Text(double x, double y, const std::string& text, const std::string& anchor = "start",
            const std::string& css_class = "", const std::string& fill = "");
  // A legend laid out left to right from (x, y), wrapping at x + max_width; returns the height it used.
  double Legend(const std::vector<LegendItem>& items, double x, double y, double max_width);
  // Sets an extra attribute on the root element (e.g. data-entry).
  void SetAttribute(const std::string& name, const std::string& value);

  std::string Finish() const;

 private:
  std::string name_;
  int width_;
  int height_;
  std::string title_;
  std::string attributes_;
  std::string body_;
};

// One panel of a chart: a plot area with its own x and y scales.
class Plot {
 public:
  struct Area {
    double left = 0, top = 0, width = 0, height = 0;
  };
  // Domains are used as given: pass NiceDomain(...) results for tidy axes.
  Plot(SvgChart& chart, Area area, std::pair<double, double> x_domain, std::pair<double, double> y_domain);

  double X(double value) const;
  double Y(double value) const;
  const Area& area() const { return area_; }

  void Axes(const AxisSpec& x, const AxisSpec& y);
  // A title above the panel.
  void Title(const std::string& text);
  void Polyline(const std::vector<std::pair<double, double>>& points, const std::string& color, double width = 1.5,
                bool dashed = false, const std::string& tooltip = "", double opacity = 1.0);
  // A step curve: horizontal to each point's x, then vertical to its y (survival curves).
  void Steps(const std::vector<std::pair<double, double>>& points, const std::string& color, double width = 2.0);
  // A stepwise band between lower and upper values over the same x steps.
  void StepBand(const std::vector<double>& xs, const std::vector<double>& lower, const std::vector<double>& upper,
                double x_end, const std::string& color, double opacity = 0.15);
  // A filled box from (x_low, y_low) to (x_high, y_high) in data units.
  void Box(double x_low, double x_high, double y_low, double y_high, const std::string& color,
           const std::string& tooltip = "");
  // A small centred label at a data point.
  void Label(double x, double y, const std::string& text);
  // A band between lower and upper values joined by straight lines (quantiles of many runs over time).
  void Band(const std::vector<double>& xs, const std::vector<double>& lower, const std::vector<double>& upper,
            const std::string& color, double opacity, const std::string& tooltip = "");
  void Dot(double x, double y, double radius, const std::string& color, const std::string& tooltip = "",
           bool hollow = false);
  void Cross(double x, double y, double size, const std::string& color, const std::string& tooltip = "");
  // A "+" mark (a censored observation on a survival curve).
  void Plus(double x, double y, double size, const std::string& color, const std::string& tooltip = "");
  void HorizontalRule(double y, const std::string& color, const std::string& label, bool dashed = true);
  void VerticalRule(double x, const std::string& color, const std::string& label, bool dashed = true);
  // An interval whisker at data y from data x_low to x_high (horizontal) or at x from y_low to y_high.
  void HorizontalWhisker(double y, double x_low, double x_high, const std::string& color);
  void VerticalWhisker(double x, double y_low, double y_high, const std::string& color);

 private:
  SvgChart& chart_;
  Area area_;
  std::pair<double, double> x_domain_;
  std::pair<double, double> y_domain_;
};

// A tick label for `value` on an axis whose ticks are `step` apart.
std::string FormatTick(double value, double step, TickStyle style);
// "M x y" coordinates with two decimals.
std::string Coord(double value);

}  // namespace evalsuite::reports
