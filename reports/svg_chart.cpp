#include "reports/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/html_escape.h"

namespace evalsuite::reports {
namespace {

constexpr double kFontSize = 12;
// Average advance of a glyph of the UI sans-serif at 12 px: legends are laid out without measuring text.
constexpr double kCharWidth = 6.8;

double NiceStep(double range, int target_count) {
  double raw = range / std::max(1, target_count);
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double fraction = raw / magnitude;
  double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

std::string TooltipElement(const std::string& tooltip) {
  return tooltip.empty() ? "" : "<title>" + EscapeHtml(tooltip) + "</title>";
}

std::string DashAttribute(bool dashed) { return dashed ? " stroke-dasharray=\"6 4\"" : ""; }

}  // namespace

std::string SeriesColor(std::size_t i) {
  static const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
                                         "#edc948", "#9c755f", "#ff9da7", "#e15759", "#bab0ac"};
  return kPalette[i % 10];
}

std::string Coord(double value) { return fmt::format("{:.2f}", value); }

std::vector<double> NiceTicks(double min, double max, int target_count) {
  std::vector<double> ticks;
  if (!std::isfinite(min) || !std::isfinite(max) || max <= min) return ticks;
  double step = NiceStep(max - min, target_count);
  double first = std::ceil(min / step - 1e-9) * step;
  for (double tick = first; tick <= max + step * 1e-9; tick += step) {
    ticks.push_back(std::abs(tick) < step * 1e-9 ? 0.0 : tick);
    if (ticks.size() > 100) break;
  }
  return ticks;
}

std::pair<double, double> NiceDomain(double min, double max, int target_count) {
  if (!std::isfinite(min) || !std::isfinite(max)) return {0, 1};
  if (max < min) std::swap(min, max);
  if (max == min) {
    double pad = min == 0 ? 1 : std::abs(min) * 0.1;
    min -= pad;
    max += pad;
  }
  double step = NiceStep(max - min, target_count);
  return {std::floor(min / step + 1e-9) * step, std::ceil(max / step - 1e-9) * step};
}

std::string FormatTick(double value, double step, TickStyle style) {
  if (style == TickStyle::kPercent) {
    value *= 100;
    step *= 100;
  }
  int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  // 2.5-steps need one more digit than their magnitude says (0.25, 0.025).
  if (std::abs(step / std::pow(10.0, -decimals) - std::round(step / std::pow(10.0, -decimals))) > 1e-6) ++decimals;
  std::string text = fmt::format("{:.{}f}", value, std::min(decimals, 6));
  return style == TickStyle::kPercent ? text + "%" : text;
}

SvgChart::SvgChart(std::string name, int width, int height, std::string title)
    : name_(std::move(name)), width_(width), height_(height), title_(std::move(title)) {}

void SvgChart::Text(double x, double y, const std::string& text, const std::string& anchor,
                    const std::string& css_class, const std::string& fill) {
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}{}>{}</text>", Coord(x), Coord(y), anchor,
                       css_class.empty() ? "" : " class=\"" + css_class + "\"",
                       fill.empty() ? "" : " fill=\"" + EscapeHtml(fill) + "\"", EscapeHtml(text));
}

void SvgChart::SetAttribute(const std::string& name, const std::string& value) {
  attributes_ += fmt::format(" {}=\"{}\"", name, EscapeHtml(value));
}

double SvgChart::Legend(const std::vector<LegendItem>& items, double x, double y, double max_width) {
  const double row_height = 18, mark_width = 22, gap = 16;
  double cursor = x, row_y = y;
  std::string markup = "<g class=\"legend\">";
  for (const LegendItem& item : items) {
    double item_width = mark_width + 6 + item.label.size() * kCharWidth;
    if (cursor > x && cursor + item_width > x + max_width) {
      cursor = x;
      row_y += row_height;
    }
    double mid = row_y + row_height / 2;
    std::string color = EscapeHtml(item.color);
    switch (item.mark) {
      case LegendItem::Mark::kLine:
      case LegendItem::Mark::kDashedLine:
        markup += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                              Coord(cursor), Coord(mid), Coord(cursor + mark_width), Coord(mid), color,
                              DashAttribute(item.mark == LegendItem::Mark::kDashedLine));
        break;
      case LegendItem::Mark::kDot:
      case LegendItem::Mark::kHollowDot:
        markup += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                              Coord(cursor + mark_width / 2), Coord(mid),
                              item.mark == LegendItem::Mark::kHollowDot ? "#fff" : color, color);
        break;
      case LegendItem::Mark::kCross: {
        double cx = cursor + mark_width / 2, s = 4.5;
        markup += fmt::format("<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"2\" fill=\"none\"/>",
                              Coord(cx - s), Coord(mid - s), Coord(cx + s), Coord(mid + s), Coord(cx - s),
                              Coord(mid + s), Coord(cx + s), Coord(mid - s), color);
        break;
      }
      case LegendItem::Mark::kBand:
        markup += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"10\" fill=\"{}\" fill-opacity=\"0.25\"/>",
                              Coord(cursor), Coord(mid - 5), Coord(mark_width), color);
        break;
    }
    markup += fmt::format("<text x=\"{}\" y=\"{}\" dominant-baseline=\"central\">{}</text>",
                          Coord(cursor + mark_width + 6), Coord(mid), EscapeHtml(item.label));
    cursor += item_width + gap;
  }
  markup += "</g>";
  body_ += markup;
  return row_y + row_height - y;
}

std::string SvgChart::Finish() const {
  return fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\"{} viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" "
      "aria-label=\"{}\" font-size=\"{}\"><title>{}</title>{}</svg>",
      EscapeHtml(name_), attributes_, width_, height_, width_, height_, EscapeHtml(title_), kFontSize,
      EscapeHtml(title_), body_);
}

Plot::Plot(SvgChart& chart, Area area, std::pair<double, double> x_domain, std::pair<double, double> y_domain)
    : chart_(chart), area_(area), x_domain_(x_domain), y_domain_(y_domain) {
  if (!(x_domain_.second > x_domain_.first)) x_domain_ = {x_domain_.first - 1, x_domain_.first + 1};
  if (!(y_domain_.second > y_domain_.first)) y_domain_ = {y_domain_.first - 1, y_domain_.first + 1};
}

double Plot::X(double value) const {
  return area_.left + (value - x_domain_.first) / (x_domain_.second - x_domain_.first) * area_.width;
}

double Plot::Y(double value) const {
  return area_.top + area_.height - (value - y_domain_.first) / (y_domain_.second - y_domain_.first) * area_.height;
}

void Plot::Axes(const AxisSpec& x, const AxisSpec& y) {
  std::string markup = "<g class=\"grid\">";
  std::string labels;
  const double bottom = area_.top + area_.height, right = area_.left + area_.width;
  if (x.ticks) {
    auto ticks = NiceTicks(x_domain_.first, x_domain_.second, x.tick_count);
    double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
    for (double tick : ticks) {
      double px = X(tick);
      markup += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", Coord(px), Coord(area_.top),
                            Coord(bottom));
      labels += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Coord(px),
                            Coord(bottom + 16), EscapeHtml(FormatTick(tick, step, x.style)));
    }
  }
  if (y.ticks) {
    auto ticks = NiceTicks(y_domain_.first, y_domain_.second, y.tick_count);
    double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
    for (double tick : ticks) {
      double py = Y(tick);
      markup += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>", Coord(area_.left), Coord(py),
                            Coord(right));
      labels += fmt::format(
          "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\" dominant-baseline=\"central\">"
          "{}</text>",
          Coord(area_.left - 6), Coord(py), EscapeHtml(FormatTick(tick, step, y.style)));
    }
  }
  markup += "</g>";
  markup += fmt::format("<path class=\"axis\" d=\"M{} {}V{}H{}\" fill=\"none\"/>", Coord(area_.left), Coord(area_.top),
                        Coord(bottom), Coord(right));
  chart_.Append(markup + labels);
  if (!x.label.empty()) {
    chart_.Text(area_.left + area_.width / 2, bottom + 36, x.label, "middle", "axis-label");
  }
  if (!y.label.empty()) {
    double cx = area_.left - 48, cy = area_.top + area_.height / 2;
    chart_.Append(
        fmt::format("<text class=\"axis-label\" x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" "
                    "transform=\"rotate(-90 {0} {1})\">{2}</text>",
                    Coord(cx), Coord(cy), EscapeHtml(y.label)));
  }
}

void Plot::Title(const std::string& text) { chart_.Text(area_.left, area_.top - 10, text, "start", "panel-title"); }

void Plot::Polyline(const std::vector<std::pair<double, double>>& points, const std::string& color, double width,
                    bool dashed, const std::string& tooltip, double opacity) {
  if (points.empty()) return;
  std::string d;
  for (const auto& [x, y] : points) d += (d.empty() ? "M" : "L") + Coord(X(x)) + " " + Coord(Y(y));
  chart_.Append(
      fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-opacity=\"{}\" "
                  "stroke-linejoin=\"round\"{}>{}</path>",
                  d, EscapeHtml(color), width, opacity, DashAttribute(dashed), TooltipElement(tooltip)));
}

void Plot::Steps(const std::vector<std::pair<double, double>>& points, const std::string& color, double width) {
  if (points.empty()) return;
  std::string d = "M" + Coord(X(points[0].first)) + " " + Coord(Y(points[0].second));
  for (std::size_t i = 1; i < points.size(); ++i) {
    d += "H" + Coord(X(points[i].first)) + "V" + Coord(Y(points[i].second));
  }
  chart_.Append(fmt::format("<path class=\"step\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>", d,
                            EscapeHtml(color), width));
}

void Plot::StepBand(const std::vector<double>& xs, const std::vector<double>& lower, const std::vector<double>& upper,
                    double x_end, const std::string& color, double opacity) {
  if (xs.empty() || xs.size() != lower.size() || xs.size() != upper.size()) return;
  // Upper edge left to right, lower edge right to left, each value held until the next x.
  std::string d;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    double next = i + 1 < xs.size() ? xs[i + 1] : x_end;
    d += (d.empty() ? "M" : "L") + Coord(X(xs[i])) + " " + Coord(Y(upper[i])) + "L" + Coord(X(next)) + " " +
         Coord(Y(upper[i]));
  }
  for (std::size_t i = xs.size(); i-- > 0;) {
    double next = i + 1 < xs.size() ? xs[i + 1] : x_end;
    d += "L" + Coord(X(next)) + " " + Coord(Y(lower[i])) + "L" + Coord(X(xs[i])) + " " + Coord(Y(lower[i]));
  }
  chart_.Append(fmt::format("<path class=\"band\" d=\"{}Z\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"none\"/>", d,
                            EscapeHtml(color), opacity));
}

void Plot::Box(double x_low, double x_high, double y_low, double y_high, const std::string& color,
               const std::string& tooltip) {
  const double left = X(x_low), right = X(x_high), top = Y(y_high), bottom = Y(y_low);
  chart_.Append(
      fmt::format("<rect class=\"box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.35\" "
                  "stroke=\"{}\">{}</rect>",
                  Coord(std::min(left, right)), Coord(std::min(top, bottom)), Coord(std::abs(right - left)),
                  Coord(std::abs(bottom - top)), EscapeHtml(color), EscapeHtml(color), TooltipElement(tooltip)));
}

void Plot::Label(double x, double y, const std::string& text) { chart_.Text(X(x), Y(y), text, "middle", "tick"); }

void Plot::Band(const std::vector<double>& xs, const std::vector<double>& lower, const std::vector<double>& upper,
                const std::string& color, double opacity, const std::string& tooltip) {
  if (xs.empty() || xs.size() != lower.size() || xs.size() != upper.size()) return;
  std::string d;
  for (std::size_t i = 0; i < xs.size(); ++i) d += (i == 0 ? "M" : "L") + Coord(X(xs[i])) + " " + Coord(Y(upper[i]));
  for (std::size_t i = xs.size(); i-- > 0;) d += "L" + Coord(X(xs[i])) + " " + Coord(Y(lower[i]));
  chart_.Append(fmt::format("<path class=\"band\" d=\"{}Z\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"none\">{}</path>",
                            d, EscapeHtml(color), opacity, TooltipElement(tooltip)));
}

void Plot::Dot(double x, double y, double radius, const std::string& color, const std::string& tooltip, bool hollow) {
  std::string fill = hollow ? "#fff" : EscapeHtml(color);
  chart_.Append(
      fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\">{}"
                  "</circle>",
                  Coord(X(x)), Coord(Y(y)), radius, fill, EscapeHtml(color), TooltipElement(tooltip)));
}

void Plot::Cross(double x, double y, double size, const std::string& color, const std::string& tooltip) {
  double cx = X(x), cy = Y(y);
  chart_.Append(
      fmt::format("<path class=\"cross\" d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"2\" "
                  "fill=\"none\">{}</path>",
                  Coord(cx - size), Coord(cy - size), Coord(cx + size), Coord(cy + size), Coord(cx - size),
                  Coord(cy + size), Coord(cx + size), Coord(cy - size), EscapeHtml(color), TooltipElement(tooltip)));
}

void Plot::Plus(double x, double y, double size, const std::string& color, const std::string& tooltip) {
  double cx = X(x), cy = Y(y);
  chart_.Append(
      fmt::format("<path class=\"plus\" d=\"M{} {}H{}M{} {}V{}\" stroke=\"{}\" stroke-width=\"1.5\" "
                  "fill=\"none\">{}</path>",
                  Coord(cx - size), Coord(cy), Coord(cx + size), Coord(cx), Coord(cy - size), Coord(cy + size),
                  EscapeHtml(color), TooltipElement(tooltip)));
}

void Plot::HorizontalRule(double y, const std::string& color, const std::string& label, bool dashed) {
  double py = Y(y);
  chart_.Append(fmt::format(
      "<line class=\"rule\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" "
      "stroke-width=\"1.5\"{4}/>",
      Coord(area_.left), Coord(py), Coord(area_.left + area_.width), EscapeHtml(color), DashAttribute(dashed)));
  if (!label.empty()) chart_.Text(area_.left + area_.width - 4, py - 5, label, "end", "rule-label", color);
}

void Plot::VerticalRule(double x, const std::string& color, const std::string& label, bool dashed) {
  double px = X(x);
  chart_.Append(fmt::format(
      "<line class=\"rule\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
      "stroke-width=\"1.5\"{4}/>",
      Coord(px), Coord(area_.top), Coord(area_.top + area_.height), EscapeHtml(color), DashAttribute(dashed)));
  if (!label.empty()) chart_.Text(px + 4, area_.top + 12, label, "start", "rule-label", color);
}

void Plot::HorizontalWhisker(double y, double x_low, double x_high, const std::string& color) {
  double py = Y(y), x0 = X(x_low), x1 = X(x_high);
  chart_.Append(
      fmt::format("<path class=\"whisker\" d=\"M{0} {2}H{1}M{0} {3}V{4}M{1} {3}V{4}\" stroke=\"{5}\" "
                  "stroke-width=\"1.5\" fill=\"none\"/>",
                  Coord(x0), Coord(x1), Coord(py), Coord(py - 4), Coord(py + 4), EscapeHtml(color)));
}

void Plot::VerticalWhisker(double x, double y_low, double y_high, const std::string& color) {
  double px = X(x), y0 = Y(y_low), y1 = Y(y_high);
  chart_.Append(
      fmt::format("<path class=\"whisker\" d=\"M{2} {0}V{1}M{3} {0}H{4}M{3} {1}H{4}\" stroke=\"{5}\" "
                  "stroke-width=\"1.5\" fill=\"none\"/>",
                  Coord(y0), Coord(y1), Coord(px), Coord(px - 4), Coord(px + 4), EscapeHtml(color)));
}

}  // namespace evalsuite::reports
