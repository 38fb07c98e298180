#include "reports/generalization_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "reports/generalization_tables.h"
#include "reports/html_escape.h"
#include "reports/svg_chart.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

struct Row {
  const HoldoutModelRow* model = nullptr;  // nullptr: a group heading
  std::string group;
  std::size_t group_index = 0;
};

}  // namespace

std::string GeneralizationAccuracyChart(const ImageSetModel& image_set) {
  // Groups in order of first appearance; models keep their order inside their group.
  std::vector<std::string> groups;
  for (const HoldoutModelRow& model : image_set.models) {
    std::string group = model.group.value_or("(no group)");
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
  }
  std::vector<Row> rows;
  std::size_t longest = 10;
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    rows.push_back({nullptr, groups[g], g});
    for (const HoldoutModelRow& model : image_set.models) {
      if (model.group.value_or("(no group)") != groups[g]) continue;
      rows.push_back({&model, groups[g], g});
      longest = std::max(longest, std::min<std::size_t>(model.name.size(), 30));
      for (const AccuracyModel* accuracy : {&model.top1, &model.top5}) {
        for (const std::optional<double>& figure : {accuracy->accuracy, accuracy->lower, accuracy->upper}) {
          if (auto value = figure) {
            low = std::min(low, *value);
            high = std::max(high, *value);
          }
        }
      }
    }
  }
  if (!(high >= low)) low = 0, high = 1;

  const int width = 960;
  const double row_height = 26, left = 30 + longest * 6.8;
  const std::string& set_name = image_set.image_set;
  SvgChart chart("generalization-accuracy", width, 0,
                 "Accuracy of every model on " + set_name + ", with 95% intervals, grouped by group");
  chart.SetAttribute("data-image-set", set_name);
  std::vector<LegendItem> legend;
  for (std::size_t g = 0; g < groups.size(); ++g) legend.push_back({groups[g], SeriesColor(g), LegendItem::Mark::kDot});
  legend.push_back({"top-1", "#555", LegendItem::Mark::kDot});
  legend.push_back({"top-5", "#555", LegendItem::Mark::kHollowDot});
  legend.push_back({"95% interval", "#555", LegendItem::Mark::kLine});
  double legend_height = chart.Legend(legend, left, 8, width - left - 20);

  Plot::Area area{left, 8 + legend_height + 14, width - left - 30, row_height * std::max<std::size_t>(rows.size(), 1)};
  chart.set_height(static_cast<int>(area.top + area.height + 50));
  auto domain = NiceDomain(std::max(0.0, low - 0.005), std::min(1.0, high + 0.005), 6);
  domain.first = std::max(0.0, domain.first);
  domain.second = std::min(1.0, domain.second);
  const double row_count = static_cast<double>(std::max<std::size_t>(rows.size(), 1));
  Plot plot(chart, area, domain, {0, row_count});
  plot.Axes({"accuracy on unseen data", TickStyle::kPercent, true, 6}, {"", TickStyle::kNumber, false});

  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const double center = row_count - r - 0.5;
    const std::string color = SeriesColor(row.group_index);
    if (!row.model) {
      chart.Append(
          fmt::format("<text class=\"group-label\" x=\"{}\" y=\"{}\" dominant-baseline=\"central\" "
                      "fill=\"{}\">{}</text>",
                      Coord(8), Coord(plot.Y(center)), color, EscapeHtml(row.group)));
      continue;
    }
    const HoldoutModelRow& model = *row.model;
    const std::string& name = model.name;
    std::string shown = name.size() > 30 ? name.substr(0, 29) + "…" : name;
    chart.Append(
        fmt::format("<text class=\"category\" x=\"{}\" y=\"{}\" text-anchor=\"end\" "
                    "dominant-baseline=\"central\"><title>{}</title>{}</text>",
                    Coord(area.left - 8), Coord(plot.Y(center)), EscapeHtml(name), EscapeHtml(shown)));
    struct Mark {
      const AccuracyModel* accuracy;
      const char* label;
      double offset;
      bool hollow;
    };
    for (const Mark& mark : {Mark{&model.top1, "top-1", 0.14, false}, Mark{&model.top5, "top-5", -0.14, true}}) {
      const AccuracyModel& accuracy = *mark.accuracy;
      auto value = accuracy.accuracy;
      if (!value) continue;
      auto lower = accuracy.lower, upper = accuracy.upper;
      if (lower && upper) plot.HorizontalWhisker(center + mark.offset, *lower, *upper, color);
      plot.Dot(*value, center + mark.offset, 4, color,
               fmt::format("{} ({}): {} {}", name, row.group, mark.label, AccuracyText(accuracy)), mark.hollow);
    }
  }
  return chart.Finish();
}

}  // namespace evalsuite::reports
