#include "reports/stability_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reports/html_escape.h"
#include "common/json_access.h"
#include "reports/svg_chart.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

const char* const kTargetColor = "#c0392b";
const char* const kFailureColor = "#c0392b";
constexpr int kWidth = 960;

std::string EntryName(const json& entry) { return StringOf(Field(entry, "name"), "entry"); }

std::string UnitLabel(const std::string& time_unit) { return "training time (" + TimeUnitSymbol(time_unit) + ")"; }

// Long entry names are shortened in axis labels (the full name stays in the tooltip and the tables).
std::string ShortLabel(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  std::size_t cut = max_chars - 1;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return text.substr(0, cut) + "…";
}

bool Counted(const json& run) { return Field(run, "counted") != json(false); }

// The x range [0, longest run]: a run's time spent, or its last evaluation (the model's curves say it; a model
// without them is read run by run).
double MaxRunTime(const json& entry) {
  if (const auto max_time = NumberOf(Field(Field(entry, "curves"), "max_time"))) return *max_time;
  double max_time = 0;
  for (const json& run : ArrayOf(Field(entry, "runs"))) {
    max_time = std::max(max_time, NumberOf(Field(run, "time_spent")).value_or(0));
    for (const json& point : ArrayOf(Field(run, "points"))) {
      if (point.is_array() && point.size() == 2) max_time = std::max(max_time, NumberOf(point[0]).value_or(0));
    }
  }
  return max_time;
}

// A positive upper end for an axis that starts at 0, even when nothing was measured.
double AxisMax(double value) { return value > 0 ? value : 1.0; }

std::string RunLabel(const json& run) { return "run " + StringOf(Field(run, "index"), "?"); }

}  // namespace

std::vector<std::pair<std::string, std::vector<const json*>>> GroupByTimeUnit(const json& entries) {
  std::vector<std::pair<std::string, std::vector<const json*>>> groups;
  for (const json& entry : ArrayOf(entries)) {
    std::string unit = StringOf(Field(entry, "time_unit"), "seconds");
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return group.first == unit; });
    if (it == groups.end()) {
      groups.push_back({unit, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(&entry);
  }
  return groups;
}

namespace {

std::vector<std::pair<double, double>> PointsOf(const json& run) {
  std::vector<std::pair<double, double>> points;
  for (const json& point : ArrayOf(Field(run, "points"))) {
    if (point.is_array() && point.size() == 2 && NumberOf(point[0]) && NumberOf(point[1])) {
      points.emplace_back(point[0].get<double>(), point[1].get<double>());
    }
  }
  return points;
}

// The band's quantile columns (q10, q25, median, q75, q90) against time, where runs were still training.
struct BandColumns {
  std::vector<double> time, q10, q25, median, q75, q90;
};

BandColumns BandOf(const json& band) {
  BandColumns columns;
  for (const json& row : ArrayOf(Field(band, "rows"))) {
    if (!row.is_array() || row.size() != 7) continue;
    std::optional<double> values[7];
    bool complete = true;
    for (std::size_t i = 0; i < 7; ++i) complete = complete && (values[i] = NumberOf(row[i])).has_value();
    if (!complete) continue;
    columns.time.push_back(*values[0]);
    columns.q10.push_back(*values[2]);
    columns.q25.push_back(*values[3]);
    columns.median.push_back(*values[4]);
    columns.q75.push_back(*values[5]);
    columns.q90.push_back(*values[6]);
  }
  return columns;
}

}  // namespace

std::string AccuracyVsTimeChart(const json& entry) {
  const std::string name = EntryName(entry), unit = StringOf(Field(entry, "time_unit"), "seconds");
  const std::string metric = StringOf(Field(entry, "metric"), "metric");
  const auto threshold = NumberOf(Field(entry, "threshold"));
  const json& curves = Field(entry, "curves");
  // What the model's curves hold: every run's points up to 20 runs, beyond a band and a few runs
  // (reports/run_curves.h). A model without curves (older) draws its runs' own points.
  const bool has_curves = curves.is_object();
  const json& runs = has_curves ? ArrayOf(Field(curves, "drawn")) : ArrayOf(Field(entry, "runs"));
  const json& band_json = Field(curves, "band");
  const bool banded = band_json.is_object();
  const std::size_t total = has_curves ? static_cast<std::size_t>(NumberOf(Field(curves, "runs")).value_or(0))
                                       : runs.size();

  SvgChart chart("accuracy-vs-time", kWidth, 400,
                 name + ": " + metric + " against training time, " +
                     (banded ? fmt::format("quantiles of {} runs and {} of them", total, runs.size())
                             : std::string("every run")));
  chart.SetAttribute("data-entry", name);

  bool any_reached = false, any_missed = false;
  for (const json& run : runs) (NumberOf(Field(run, "tta")) ? any_reached : any_missed) = true;
  std::vector<LegendItem> legend;
  auto label = [&](const json& run) {
    const std::string role = StringOf(Field(run, "role"));
    return role.empty() ? RunLabel(run) : RunLabel(run) + " (" + role + ")";
  };
  if (banded) {
    legend.push_back({fmt::format("10–90% of {} runs", total), "#4e79a7", LegendItem::Mark::kBand});
    legend.push_back({"25–75%", "#1f4e79", LegendItem::Mark::kBand});
    legend.push_back({"median", "#1f4e79", LegendItem::Mark::kLine});
  }
  for (std::size_t i = 0; i < runs.size() && i < 20; ++i) legend.push_back({label(runs[i]), SeriesColor(i)});
  if (!banded && runs.size() > 20) legend.push_back({fmt::format("… {} runs in all", runs.size()), "#999"});
  legend.push_back({"target", kTargetColor, LegendItem::Mark::kDashedLine});
  if (any_reached) legend.push_back({"time to accuracy", "#555", LegendItem::Mark::kDot});
  if (any_missed) legend.push_back({"did not reach the target (dashed)", "#555", LegendItem::Mark::kDashedLine});
  double legend_height = chart.Legend(legend, 70, 8, kWidth - 90);

  double y_min = std::numeric_limits<double>::infinity(), y_max = -y_min;
  if (has_curves) {
    if (const auto low = NumberOf(Field(curves, "metric_min"))) y_min = *low;
    if (const auto high = NumberOf(Field(curves, "metric_max"))) y_max = *high;
  } else {
    for (const json& run : runs) {
      for (const auto& [time, value] : PointsOf(run)) {
        y_min = std::min(y_min, value);
        y_max = std::max(y_max, value);
      }
    }
  }
  if (threshold) {
    y_min = std::min(y_min, *threshold);
    y_max = std::max(y_max, *threshold);
  }
  Plot::Area area{70, 8 + legend_height + 14, kWidth - 90, 0};
  area.height = 400 - area.top - 50;
  Plot plot(chart, area, NiceDomain(0, AxisMax(MaxRunTime(entry)), 8), NiceDomain(y_min, y_max, 6));
  plot.Axes({UnitLabel(unit)}, {metric});

  if (banded) {
    const BandColumns band = BandOf(band_json);
    plot.Band(band.time, band.q10, band.q90, "#4e79a7", 0.18,
              fmt::format("10–90% of the runs still training ({} counted runs)", total));
    plot.Band(band.time, band.q25, band.q75, "#1f4e79", 0.25, "25–75% of the runs still training");
    std::vector<std::pair<double, double>> median;
    for (std::size_t i = 0; i < band.time.size(); ++i) median.emplace_back(band.time[i], band.median[i]);
    plot.Polyline(median, "#1f4e79", 2, false, "median of the runs still training", 0.9);
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& run = runs[i];
    const std::vector<std::pair<double, double>> points = PointsOf(run);
    const auto tta = NumberOf(Field(run, "tta"));
    std::string tooltip = fmt::format(
        "{} ({}): {}", label(run), StringOf(Field(run, "status"), "?"),
        tta ? "TTA " + FormatMagnitude(*tta) + " " + TimeUnitSymbol(unit) : std::string("did not reach the target"));
    plot.Polyline(points, SeriesColor(i), 1.8, !tta, tooltip, Counted(run) ? 0.9 : 0.4);
    if (tta && threshold) {
      // The TTA point is the first evaluation at or above the threshold: mark it at its own metric value.
      for (const auto& [time, value] : points) {
        if (time == *tta) {
          plot.Dot(time, value, 4, SeriesColor(i), tooltip);
          break;
        }
      }
    }
  }
  if (threshold) plot.HorizontalRule(*threshold, kTargetColor, "target " + FormatThreshold(*threshold));
  if (runs.empty()) chart.Text(area.left + area.width / 2, area.top + area.height / 2, "no runs", "middle", "empty");
  return chart.Finish();
}

namespace {

// An entry of more than kDotsPerEntry counted runs in the TTA chart: a box of the middle half of the TTAs that
// reached, whiskers to the 5% and 95% quantiles, the extremes as two dots, its median bar, and one cross with the
// count of the runs that did not reach (every run's TTA stays in report.json).
constexpr std::size_t kDotsPerEntry = 100;

// Censored runs marked one by one in the Kaplan-Meier chart, per entry; more share a cross per pixel column.
constexpr std::size_t kCrossesPerEntry = 50;

bool Summarized(const json& entry) {
  const json& runs = ArrayOf(Field(entry, "runs"));
  return static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), Counted)) > kDotsPerEntry;
}

double LinearQuantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

void SummaryRow(Plot& plot, Plot& band, const std::string& name, const json& runs, double center,
                const std::string& time_unit) {
  std::vector<double> reached;
  std::size_t missed = 0;
  for (const json& run : runs) {
    if (!Counted(run)) continue;
    if (auto tta = NumberOf(Field(run, "tta"))) {
      reached.push_back(*tta);
    } else {
      ++missed;
    }
  }
  std::sort(reached.begin(), reached.end());
  const std::string symbol = TimeUnitSymbol(time_unit);
  if (!reached.empty()) {
    const double q05 = LinearQuantile(reached, 0.05), q25 = LinearQuantile(reached, 0.25);
    const double q75 = LinearQuantile(reached, 0.75), q95 = LinearQuantile(reached, 0.95);
    plot.HorizontalWhisker(center, q05, q95, "#4e79a7");
    plot.Box(q25, q75, center - 0.22, center + 0.22, "#4e79a7",
             fmt::format("{}: {} runs reached; middle half {}–{} {}, 5–95% {}–{} {}", name, reached.size(),
                         FormatMagnitude(q25), FormatMagnitude(q75), symbol, FormatMagnitude(q05),
                         FormatMagnitude(q95), symbol));
    plot.Dot(reached.front(), center, 3, "#4e79a7",
             fmt::format("{}: fastest TTA {} {}", name, FormatMagnitude(reached.front()), symbol), true);
    plot.Dot(reached.back(), center, 3, "#4e79a7",
             fmt::format("{}: slowest TTA {} {}", name, FormatMagnitude(reached.back()), symbol), true);
  }
  if (missed > 0) {
    band.Cross(0.5, center, 4.5, kFailureColor, fmt::format("{}: {} runs did not reach the target", name, missed));
    band.Label(0.5, center + 0.3, fmt::format("{}", missed));
  }
}

}  // namespace

std::string TtaPerRunChart(const std::vector<const json*>& entries, const std::string& time_unit) {
  std::size_t longest = 8;
  for (const json* entry : entries) longest = std::max(longest, std::min<std::size_t>(EntryName(*entry).size(), 28));
  const double row_height = 40, left = 24 + longest * 6.8, band_width = 80;
  SvgChart chart("tta-per-run", kWidth, 0, "Time to accuracy of every run, per entry");
  std::vector<LegendItem> legend = {{"run that reached the target", "#4e79a7", LegendItem::Mark::kDot},
                                    {"median of the runs that reached", "#222", LegendItem::Mark::kLine},
                                    {"did not reach the target", kFailureColor, LegendItem::Mark::kCross}};
  if (std::any_of(entries.begin(), entries.end(), [](const json* entry) { return Summarized(*entry); })) {
    legend.push_back({fmt::format("over {} runs: middle half (box), 5–95% (whiskers), extremes (hollow), count not "
                                  "reached",
                                  kDotsPerEntry),
                      "#4e79a7", LegendItem::Mark::kBand});
  }
  double legend_height = chart.Legend(legend, left, 8, kWidth - left - 20);

  double max_tta = 0;
  for (const json* entry : entries) {
    for (const json& run : ArrayOf(Field(*entry, "runs")))
      max_tta = std::max(max_tta, NumberOf(Field(run, "tta")).value_or(0));
  }
  Plot::Area area{left, 8 + legend_height + 14, kWidth - left - band_width - 40,
                  row_height * std::max<std::size_t>(entries.size(), 1)};
  chart.set_height(static_cast<int>(area.top + area.height + 50));
  std::pair<double, double> rows{0, static_cast<double>(std::max<std::size_t>(entries.size(), 1))};
  Plot plot(chart, area, NiceDomain(0, AxisMax(max_tta), 7), rows);
  plot.Axes({"time to accuracy (" + TimeUnitSymbol(time_unit) + ")"}, {"", TickStyle::kNumber, false});
  Plot::Area band_area{area.left + area.width + 30, area.top, band_width, area.height};
  Plot band(chart, band_area, {0, 1}, rows);
  chart.Append(fmt::format("<rect class=\"failure-band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                           Coord(band_area.left), Coord(band_area.top), Coord(band_area.width),
                           Coord(band_area.height)));
  chart.Text(band_area.left + band_area.width / 2, band_area.top + band_area.height + 16, "not reached", "middle",
             "tick");

  for (std::size_t row = 0; row < entries.size(); ++row) {
    const json& entry = *entries[row];
    const double center = entries.size() - row - 0.5;  // first entry on top
    const std::string name = EntryName(entry);
    chart.Append(
        fmt::format("<text class=\"category\" x=\"{}\" y=\"{}\" text-anchor=\"end\" "
                    "dominant-baseline=\"central\"><title>{}</title>{}</text>",
                    Coord(area.left - 8), Coord(plot.Y(center)), EscapeHtml(name), EscapeHtml(ShortLabel(name, 28))));
    const json& runs = ArrayOf(Field(entry, "runs"));
    std::size_t failures = 0;
    const bool summarized = Summarized(entry);
    if (summarized) SummaryRow(plot, band, name, runs, center, time_unit);
    for (std::size_t i = 0; i < runs.size() && !summarized; ++i) {
      const json& run = runs[i];
      if (!Counted(run)) continue;
      // A small fixed vertical offset per run keeps equal times apart without randomness.
      const double jitter = (static_cast<double>(i % 5) - 2) * 0.09;
      if (auto tta = NumberOf(Field(run, "tta"))) {
        plot.Dot(
            *tta, center + jitter, 4.5, "#4e79a7",
            fmt::format("{} · {}: TTA {} {}", name, RunLabel(run), FormatMagnitude(*tta), TimeUnitSymbol(time_unit)),
            false);
      } else {
        double x = 0.5 + (static_cast<double>(failures % 5) - 2) * 0.15;
        band.Cross(x, center + jitter, 4.5, kFailureColor,
                   fmt::format("{} · {}: did not reach the target ({})", name, RunLabel(run),
                               StringOf(Field(run, "status"), "?")));
        ++failures;
      }
    }
    const json& summary = Field(Field(entry, "stats"), "tta_summary");
    if (auto median = NumberOf(Field(summary, "median"));
        median && NumberOf(Field(Field(entry, "stats"), "reached")).value_or(0) > 0) {
      plot.Polyline({{*median, center - 0.32}, {*median, center + 0.32}}, "#222", 2.5, false,
                    fmt::format("{}: median TTA of the runs that reached {} {}", name, FormatMagnitude(*median),
                                TimeUnitSymbol(time_unit)));
    }
  }
  return chart.Finish();
}

std::string KaplanMeierChart(const std::vector<const json*>& entries, const std::string& time_unit) {
  SvgChart chart("kaplan-meier", kWidth, 420, "Kaplan-Meier: share of runs not yet at the target over training time");
  std::vector<LegendItem> legend;
  for (std::size_t i = 0; i < entries.size(); ++i)
    legend.push_back({ShortLabel(EntryName(*entries[i]), 28), SeriesColor(i)});
  legend.push_back({"95% band (log-log)", "#888", LegendItem::Mark::kBand});
  legend.push_back({"stopped below target (censored)", "#555", LegendItem::Mark::kCross});
  double legend_height = chart.Legend(legend, 70, 8, kWidth - 90);

  double max_time = 0;
  for (const json* entry : entries) max_time = std::max(max_time, MaxRunTime(*entry));
  Plot::Area area{70, 8 + legend_height + 14, kWidth - 90, 0};
  area.height = 420 - area.top - 50;
  Plot plot(chart, area, NiceDomain(0, AxisMax(max_time), 8), {0, 1});
  plot.Axes({UnitLabel(time_unit)}, {"runs not yet at target", TickStyle::kPercent, true, 5});

  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& entry = *entries[i];
    const json& kaplan_meier = Field(Field(entry, "stats"), "kaplan_meier");
    const double end = MaxRunTime(entry);
    std::vector<double> xs{0}, lower{1}, upper{1};
    std::vector<std::pair<double, double>> curve{{0, 1}};
    for (const json& step : ArrayOf(Field(kaplan_meier, "steps"))) {
      auto time = NumberOf(Field(step, "time"));
      auto survival = NumberOf(Field(step, "survival"));
      if (!time || !survival) continue;
      curve.emplace_back(*time, *survival);
      xs.push_back(*time);
      lower.push_back(NumberOf(Field(step, "lower")).value_or(*survival));
      upper.push_back(NumberOf(Field(step, "upper")).value_or(*survival));
    }
    curve.emplace_back(std::max(end, curve.back().first), curve.back().second);
    plot.StepBand(xs, lower, upper, std::max(end, xs.back()), SeriesColor(i), 0.13);
    plot.Steps(curve, SeriesColor(i), 2.2);
    // Censored runs: marked on the curve at the time they stopped below the target; beyond kCrossesPerEntry, runs
    // that would share a pixel column share one cross that counts them.
    std::vector<std::pair<double, const json*>> censored;
    for (const json& run : ArrayOf(Field(entry, "runs"))) {
      if (!Counted(run) || NumberOf(Field(run, "tta"))) continue;
      censored.emplace_back(NumberOf(Field(run, "time_spent")).value_or(0), &run);
    }
    auto survival_at = [&](double stopped) {
      double survival = 1;
      for (const auto& [time, value] : curve) {
        if (time <= stopped) survival = value;
      }
      return survival;
    };
    if (censored.size() <= kCrossesPerEntry) {
      for (const auto& [stopped, run] : censored) {
        plot.Cross(stopped, survival_at(stopped), 4, SeriesColor(i),
                   fmt::format("{} · {}: stopped below the target at {} {}", EntryName(entry), RunLabel(*run),
                               FormatMagnitude(stopped), TimeUnitSymbol(time_unit)));
      }
    } else {
      std::stable_sort(censored.begin(), censored.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t first = 0; first < censored.size();) {
        std::size_t last = first + 1;
        while (last < censored.size() && std::round(plot.X(censored[last].first)) ==
                                             std::round(plot.X(censored[first].first))) {
          ++last;
        }
        const double stopped = censored[first].first;
        plot.Cross(stopped, survival_at(stopped), 4, SeriesColor(i),
                   fmt::format("{}: {} run(s) stopped below the target at {}–{} {}", EntryName(entry), last - first,
                               FormatMagnitude(stopped), FormatMagnitude(censored[last - 1].first),
                               TimeUnitSymbol(time_unit)));
        first = last;
      }
    }
    if (auto median = NumberOf(Field(kaplan_meier, "median"))) {
      plot.Dot(*median, 0.5, 3.5, SeriesColor(i),
               fmt::format("{}: median time to target {} {}", EntryName(entry), FormatMagnitude(*median),
                           TimeUnitSymbol(time_unit)),
               true);
    }
  }
  plot.HorizontalRule(0.5, "#999", "median", true);
  return chart.Finish();
}

std::string ThresholdSensitivityChart(const json& entry) {
  const std::string name = EntryName(entry), unit = StringOf(Field(entry, "time_unit"), "seconds");
  const json& rows = ArrayOf(Field(Field(entry, "sensitivity"), "thresholds"));
  SvgChart chart("threshold-sensitivity", kWidth, 330, name + ": median TTA and hit rate against the threshold");
  chart.SetAttribute("data-entry", name);
  // The median over the runs that reached a threshold ignores those that did not, so it can fall as the
  // threshold rises; the Kaplan-Meier median counts every run and is drawn beside it.
  double legend_height = chart.Legend({{"median TTA of runs that reached", "#4e79a7", LegendItem::Mark::kDot},
                                       {"Kaplan-Meier median (all runs)", "#f28e2b", LegendItem::Mark::kHollowDot},
                                       {"min–max of TTA / 95% interval", "#4e79a7", LegendItem::Mark::kLine},
                                       {"hit rate", "#59a14f", LegendItem::Mark::kDot},
                                       {"target", kTargetColor, LegendItem::Mark::kDashedLine}},
                                      70, 8, kWidth - 90);

  double t_min = std::numeric_limits<double>::infinity(), t_max = -t_min, tta_max = 0;
  for (const json& row : rows) {
    if (auto t = NumberOf(Field(row, "threshold"))) {
      t_min = std::min(t_min, *t);
      t_max = std::max(t_max, *t);
    }
    tta_max = std::max(tta_max, NumberOf(Field(Field(row, "tta_summary"), "max")).value_or(0));
  }
  if (rows.empty()) t_min = t_max = NumberOf(Field(entry, "threshold")).value_or(0);
  // Pad by half a grid step so that the outermost thresholds do not sit on the frame.
  double pad = (t_max - t_min) * 0.06 + 1e-12;
  const double top = 8 + legend_height + 34, panel_height = 330 - top - 50, gap = 90;
  const double panel_width = (kWidth - 70 - 20 - gap) / 2.0;
  Plot tta_plot(chart, {70, top, panel_width, panel_height}, {t_min - pad, t_max + pad},
                NiceDomain(0, AxisMax(tta_max), 5));
  tta_plot.Axes({"threshold", TickStyle::kNumber, true, 4},
                {"TTA (" + TimeUnitSymbol(unit) + ")", TickStyle::kNumber, true, 5});
  tta_plot.Title("Median time to accuracy");
  Plot hit_plot(chart, {70 + panel_width + gap, top, panel_width, panel_height}, {t_min - pad, t_max + pad}, {0, 1});
  hit_plot.Axes({"threshold", TickStyle::kNumber, true, 4}, {"runs reaching", TickStyle::kPercent, true, 5});
  hit_plot.Title("Runs reaching the threshold");

  // Lines and the target first, marks on top: two passes over the rows.
  std::vector<std::pair<double, double>> median_line, km_line, hit_line;
  for (const json& row : rows) {
    auto threshold = NumberOf(Field(row, "threshold"));
    if (!threshold) continue;
    auto median = NumberOf(Field(Field(row, "tta_summary"), "median"));
    if (median && NumberOf(Field(row, "reached")).value_or(0) > 0) median_line.emplace_back(*threshold, *median);
    if (auto km_median = NumberOf(Field(Field(row, "kaplan_meier"), "median")))
      km_line.emplace_back(*threshold, *km_median);
    if (auto hit_rate = NumberOf(Field(row, "hit_rate"))) hit_line.emplace_back(*threshold, *hit_rate);
  }
  if (auto target = NumberOf(Field(entry, "threshold"))) {
    tta_plot.VerticalRule(*target, kTargetColor, "");
    hit_plot.VerticalRule(*target, kTargetColor, "");
  }
  tta_plot.Polyline(median_line, "#4e79a7", 1.5, false, "", 0.6);
  tta_plot.Polyline(km_line, "#f28e2b", 1.5, true, "", 0.7);
  hit_plot.Polyline(hit_line, "#59a14f", 1.5, false, "", 0.6);
  if (median_line.empty()) {
    chart.Text(70 + panel_width / 2, top + panel_height / 2, "no run reached these thresholds", "middle", "empty");
  }

  for (const json& row : rows) {
    auto threshold = NumberOf(Field(row, "threshold"));
    if (!threshold) continue;
    const std::string label = FormatThreshold(*threshold);
    const json& summary = Field(row, "tta_summary");
    bool reached = NumberOf(Field(row, "reached")).value_or(0) > 0;
    if (auto median = NumberOf(Field(summary, "median")); median && reached) {
      auto low = NumberOf(Field(summary, "min")), high = NumberOf(Field(summary, "max"));
      if (low && high) tta_plot.VerticalWhisker(*threshold, *low, *high, "#4e79a7");
      tta_plot.Dot(*threshold, *median, 4, "#4e79a7",
                   fmt::format("threshold {}: median TTA of the runs that reached {} {}", label,
                               FormatMagnitude(*median), TimeUnitSymbol(unit)));
    }
    if (auto km_median = NumberOf(Field(Field(row, "kaplan_meier"), "median"))) {
      tta_plot.Dot(*threshold, *km_median, 3.5, "#f28e2b",
                   fmt::format("threshold {}: Kaplan-Meier median {} {}", label, FormatMagnitude(*km_median),
                               TimeUnitSymbol(unit)),
                   true);
    }
    if (auto hit_rate = NumberOf(Field(row, "hit_rate"))) {
      const json& interval = Field(row, "hit_rate_interval");
      auto low = NumberOf(Field(interval, "lower")), high = NumberOf(Field(interval, "upper"));
      if (low && high) hit_plot.VerticalWhisker(*threshold, *low, *high, "#59a14f");
      hit_plot.Dot(*threshold, *hit_rate, 4, "#59a14f",
                   fmt::format("threshold {}: {}/{} runs reached", label, StringOf(Field(row, "reached")),
                               StringOf(Field(row, "runs"))));
    }
  }
  return chart.Finish();
}

}  // namespace evalsuite::reports
