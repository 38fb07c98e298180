#include "reports/stability_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reports/html_escape.h"
#include "reports/svg_chart.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {

const char* const kTargetColor = "#c0392b";
const char* const kFailureColor = "#c0392b";
constexpr int kWidth = 960;

const std::string& EntryName(const EntryModel& entry) { return entry.name; }

std::string UnitLabel(const std::string& time_unit) { return "training time (" + TimeUnitSymbol(time_unit) + ")"; }

// Long entry names are shortened in axis labels (the full name stays in the tooltip and the tables).
std::string ShortLabel(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  std::size_t cut = max_chars - 1;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return text.substr(0, cut) + "…";
}

// The x range [0, longest run]: a run's time spent, or its last evaluation (the entry's curves say it; without a
// finite one, the runs' time spent).
double MaxRunTime(const EntryModel& entry) {
  if (const auto max_time = Finite(entry.curves.max_time)) return *max_time;
  double max_time = 0;
  for (const RunModel& run : entry.runs) max_time = std::max(max_time, Finite(run.time_spent).value_or(0));
  return max_time;
}

// A positive upper end for an axis that starts at 0, even when nothing was measured.
double AxisMax(double value) { return value > 0 ? value : 1.0; }

std::string RunLabel(int index) { return "run " + std::to_string(index); }

}  // namespace

std::vector<std::pair<std::string, std::vector<const EntryModel*>>> GroupByTimeUnit(
    const std::vector<EntryModel>& entries) {
  std::vector<std::pair<std::string, std::vector<const EntryModel*>>> groups;
  for (const EntryModel& entry : entries) {
    const std::string& unit = entry.time_unit;
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

std::vector<std::pair<double, double>> PointsOf(const DrawnRunModel& run) {
  std::vector<std::pair<double, double>> points;
  for (const stats::CurvePoint& point : run.points) {
    if (std::isfinite(point.time) && std::isfinite(point.metric)) points.emplace_back(point.time, point.metric);
  }
  return points;
}

// The band's quantile columns (q10, q25, median, q75, q90) against time, where runs were still training.
struct BandColumns {
  std::vector<double> time, q10, q25, median, q75, q90;
};

BandColumns BandOf(const std::vector<BandRowModel>& band) {
  BandColumns columns;
  for (const BandRowModel& row : band) {
    const std::optional<double> values[] = {Finite(row.time),   Finite(row.q10), Finite(row.q25),
                                            Finite(row.median), Finite(row.q75), Finite(row.q90)};
    if (!std::all_of(std::begin(values), std::end(values), [](const auto& v) { return v.has_value(); })) continue;
    columns.time.push_back(*values[0]);
    columns.q10.push_back(*values[1]);
    columns.q25.push_back(*values[2]);
    columns.median.push_back(*values[3]);
    columns.q75.push_back(*values[4]);
    columns.q90.push_back(*values[5]);
  }
  return columns;
}

}  // namespace

std::string AccuracyVsTimeChart(const EntryModel& entry) {
  const std::string name = EntryName(entry), unit = entry.time_unit;
  const std::string metric = entry.metric;
  const auto threshold = Finite(entry.threshold);
  const CurvesModel& curves = entry.curves;
  // What the entry's curves hold: every run's points up to 20 runs, beyond a band and a few runs
  // (reports/run_curves.h).
  const std::vector<DrawnRunModel>& runs = curves.drawn;
  const bool banded = curves.banded;
  const std::size_t total = curves.runs;

  SvgChart chart(
      "accuracy-vs-time", kWidth, 400,
      name + ": " + metric + " against training time, " +
          (banded ? fmt::format("quantiles of {} runs and {} of them", total, runs.size()) : std::string("every run")));
  chart.SetAttribute("data-entry", name);

  bool any_reached = false, any_missed = false;
  for (const DrawnRunModel& run : runs) (Finite(run.tta) ? any_reached : any_missed) = true;
  std::vector<LegendItem> legend;
  auto label = [&](const DrawnRunModel& run) {
    return run.role.empty() ? RunLabel(run.index) : RunLabel(run.index) + " (" + run.role + ")";
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
  if (const auto low = Finite(curves.metric_min)) y_min = *low;
  if (const auto high = Finite(curves.metric_max)) y_max = *high;
  if (threshold) {
    y_min = std::min(y_min, *threshold);
    y_max = std::max(y_max, *threshold);
  }
  Plot::Area area{70, 8 + legend_height + 14, kWidth - 90, 0};
  area.height = 400 - area.top - 50;
  Plot plot(chart, area, NiceDomain(0, AxisMax(MaxRunTime(entry)), 8), NiceDomain(y_min, y_max, 6));
  plot.Axes({UnitLabel(unit)}, {metric});

  if (banded) {
    const BandColumns band = BandOf(curves.band);
    plot.Band(band.time, band.q10, band.q90, "#4e79a7", 0.18,
              fmt::format("10–90% of the runs still training ({} counted runs)", total));
    plot.Band(band.time, band.q25, band.q75, "#1f4e79", 0.25, "25–75% of the runs still training");
    std::vector<std::pair<double, double>> median;
    for (std::size_t i = 0; i < band.time.size(); ++i) median.emplace_back(band.time[i], band.median[i]);
    plot.Polyline(median, "#1f4e79", 2, false, "median of the runs still training", 0.9);
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const DrawnRunModel& run = runs[i];
    const std::vector<std::pair<double, double>> points = PointsOf(run);
    const auto tta = Finite(run.tta);
    std::string tooltip = fmt::format(
        "{} ({}): {}", label(run), run.status,
        tta ? "TTA " + FormatMagnitude(*tta) + " " + TimeUnitSymbol(unit) : std::string("did not reach the target"));
    plot.Polyline(points, SeriesColor(i), 1.8, !tta, tooltip, run.counted ? 0.9 : 0.4);
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

bool Summarized(const EntryModel& entry) {
  return static_cast<std::size_t>(std::count_if(entry.runs.begin(), entry.runs.end(),
                                                [](const RunModel& run) { return run.counted; })) > kDotsPerEntry;
}

double LinearQuantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

void SummaryRow(Plot& plot, Plot& band, const std::string& name, const std::vector<RunModel>& runs, double center,
                const std::string& time_unit) {
  std::vector<double> reached;
  std::size_t missed = 0;
  for (const RunModel& run : runs) {
    if (!run.counted) continue;
    if (auto tta = Finite(run.tta)) {
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
                         FormatMagnitude(q25), FormatMagnitude(q75), symbol, FormatMagnitude(q05), FormatMagnitude(q95),
                         symbol));
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

std::string TtaPerRunChart(const std::vector<const EntryModel*>& entries, const std::string& time_unit) {
  std::size_t longest = 8;
  for (const EntryModel* entry : entries)
    longest = std::max(longest, std::min<std::size_t>(EntryName(*entry).size(), 28));
  const double row_height = 40, left = 24 + longest * 6.8, band_width = 80;
  SvgChart chart("tta-per-run", kWidth, 0, "Time to accuracy of every run, per entry");
  std::vector<LegendItem> legend = {{"run that reached the target", "#4e79a7", LegendItem::Mark::kDot},
                                    {"median of the runs that reached", "#222", LegendItem::Mark::kLine},
                                    {"did not reach the target", kFailureColor, LegendItem::Mark::kCross}};
  if (std::any_of(entries.begin(), entries.end(), [](const EntryModel* entry) { return Summarized(*entry); })) {
    legend.push_back({fmt::format("over {} runs: middle half (box), 5–95% (whiskers), extremes (hollow), count not "
                                  "reached",
                                  kDotsPerEntry),
                      "#4e79a7", LegendItem::Mark::kBand});
  }
  double legend_height = chart.Legend(legend, left, 8, kWidth - left - 20);

  double max_tta = 0;
  for (const EntryModel* entry : entries) {
    for (const RunModel& run : entry->runs) max_tta = std::max(max_tta, Finite(run.tta).value_or(0));
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
    const EntryModel& entry = *entries[row];
    const double center = entries.size() - row - 0.5;  // first entry on top
    const std::string name = EntryName(entry);
    chart.Append(
        fmt::format("<text class=\"category\" x=\"{}\" y=\"{}\" text-anchor=\"end\" "
                    "dominant-baseline=\"central\"><title>{}</title>{}</text>",
                    Coord(area.left - 8), Coord(plot.Y(center)), EscapeHtml(name), EscapeHtml(ShortLabel(name, 28))));
    const std::vector<RunModel>& runs = entry.runs;
    std::size_t failures = 0;
    const bool summarized = Summarized(entry);
    if (summarized) SummaryRow(plot, band, name, runs, center, time_unit);
    for (std::size_t i = 0; i < runs.size() && !summarized; ++i) {
      const RunModel& run = runs[i];
      if (!run.counted) continue;
      // A small fixed vertical offset per run keeps equal times apart without randomness.
      const double jitter = (static_cast<double>(i % 5) - 2) * 0.09;
      if (auto tta = Finite(run.tta)) {
        plot.Dot(*tta, center + jitter, 4.5, "#4e79a7",
                 fmt::format("{} · {}: TTA {} {}", name, RunLabel(run.index), FormatMagnitude(*tta),
                             TimeUnitSymbol(time_unit)),
                 false);
      } else {
        double x = 0.5 + (static_cast<double>(failures % 5) - 2) * 0.15;
        band.Cross(x, center + jitter, 4.5, kFailureColor,
                   fmt::format("{} · {}: did not reach the target ({})", name, RunLabel(run.index), run.status));
        ++failures;
      }
    }
    if (auto median = Finite(entry.stats.tta_summary.median); median && entry.stats.reached > 0) {
      plot.Polyline({{*median, center - 0.32}, {*median, center + 0.32}}, "#222", 2.5, false,
                    fmt::format("{}: median TTA of the runs that reached {} {}", name, FormatMagnitude(*median),
                                TimeUnitSymbol(time_unit)));
    }
  }
  return chart.Finish();
}

std::string KaplanMeierChart(const std::vector<const EntryModel*>& entries, const std::string& time_unit) {
  SvgChart chart("kaplan-meier", kWidth, 420, "Kaplan-Meier: share of runs not yet at the target over training time");
  std::vector<LegendItem> legend;
  for (std::size_t i = 0; i < entries.size(); ++i)
    legend.push_back({ShortLabel(EntryName(*entries[i]), 28), SeriesColor(i)});
  legend.push_back({"95% band (log-log)", "#888", LegendItem::Mark::kBand});
  legend.push_back({"stopped below target (censored)", "#555", LegendItem::Mark::kCross});
  double legend_height = chart.Legend(legend, 70, 8, kWidth - 90);

  double max_time = 0;
  for (const EntryModel* entry : entries) max_time = std::max(max_time, MaxRunTime(*entry));
  Plot::Area area{70, 8 + legend_height + 14, kWidth - 90, 0};
  area.height = 420 - area.top - 50;
  Plot plot(chart, area, NiceDomain(0, AxisMax(max_time), 8), {0, 1});
  plot.Axes({UnitLabel(time_unit)}, {"runs not yet at target", TickStyle::kPercent, true, 5});

  for (std::size_t i = 0; i < entries.size(); ++i) {
    const EntryModel& entry = *entries[i];
    const stats::KaplanMeierCurve& kaplan_meier = entry.stats.time_to_target;
    const double end = MaxRunTime(entry);
    std::vector<double> xs{0}, lower{1}, upper{1};
    std::vector<std::pair<double, double>> curve{{0, 1}};
    for (const stats::KaplanMeierStep& step : kaplan_meier.steps) {
      auto time = Finite(step.time);
      auto survival = Finite(step.survival);
      if (!time || !survival) continue;
      curve.emplace_back(*time, *survival);
      xs.push_back(*time);
      lower.push_back(Finite(step.lower).value_or(*survival));
      upper.push_back(Finite(step.upper).value_or(*survival));
    }
    curve.emplace_back(std::max(end, curve.back().first), curve.back().second);
    plot.StepBand(xs, lower, upper, std::max(end, xs.back()), SeriesColor(i), 0.13);
    plot.Steps(curve, SeriesColor(i), 2.2);
    // Censored runs: marked on the curve at the time they stopped below the target; beyond kCrossesPerEntry, runs
    // that would share a pixel column share one cross that counts them.
    std::vector<std::pair<double, const RunModel*>> censored;
    for (const RunModel& run : entry.runs) {
      if (!run.counted || Finite(run.tta)) continue;
      censored.emplace_back(Finite(run.time_spent).value_or(0), &run);
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
                   fmt::format("{} · {}: stopped below the target at {} {}", EntryName(entry), RunLabel(run->index),
                               FormatMagnitude(stopped), TimeUnitSymbol(time_unit)));
      }
    } else {
      std::stable_sort(censored.begin(), censored.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t first = 0; first < censored.size();) {
        std::size_t last = first + 1;
        while (last < censored.size() &&
               std::round(plot.X(censored[last].first)) == std::round(plot.X(censored[first].first))) {
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
    if (auto median = Finite(kaplan_meier.median)) {
      plot.Dot(*median, 0.5, 3.5, SeriesColor(i),
               fmt::format("{}: median time to target {} {}", EntryName(entry), FormatMagnitude(*median),
                           TimeUnitSymbol(time_unit)),
               true);
    }
  }
  plot.HorizontalRule(0.5, "#999", "median", true);
  return chart.Finish();
}

std::string ThresholdSensitivityChart(const EntryModel& entry) {
  const std::string name = EntryName(entry), unit = entry.time_unit;
  const std::vector<SensitivityRowModel>& rows = entry.sensitivity.thresholds;
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
  for (const SensitivityRowModel& row : rows) {
    if (auto t = Finite(row.stats.threshold)) {
      t_min = std::min(t_min, *t);
      t_max = std::max(t_max, *t);
    }
    tta_max = std::max(tta_max, Finite(row.stats.tta_summary.max).value_or(0));
  }
  if (rows.empty()) t_min = t_max = Finite(entry.threshold).value_or(0);
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
  for (const SensitivityRowModel& row : rows) {
    auto threshold = Finite(row.stats.threshold);
    if (!threshold) continue;
    auto median = Finite(row.stats.tta_summary.median);
    if (median && row.stats.reached > 0) median_line.emplace_back(*threshold, *median);
    if (auto km_median = Finite(row.stats.time_to_target.median)) km_line.emplace_back(*threshold, *km_median);
    if (auto hit_rate = Finite(row.stats.hit_rate)) hit_line.emplace_back(*threshold, *hit_rate);
  }
  if (auto target = Finite(entry.threshold)) {
    tta_plot.VerticalRule(*target, kTargetColor, "");
    hit_plot.VerticalRule(*target, kTargetColor, "");
  }
  tta_plot.Polyline(median_line, "#4e79a7", 1.5, false, "", 0.6);
  tta_plot.Polyline(km_line, "#f28e2b", 1.5, true, "", 0.7);
  hit_plot.Polyline(hit_line, "#59a14f", 1.5, false, "", 0.6);
  if (median_line.empty()) {
    chart.Text(70 + panel_width / 2, top + panel_height / 2, "no run reached these thresholds", "middle", "empty");
  }

  for (const SensitivityRowModel& row : rows) {
    auto threshold = Finite(row.stats.threshold);
    if (!threshold) continue;
    const std::string label = FormatThreshold(*threshold);
    const stats::Summary& summary = row.stats.tta_summary;
    bool reached = row.stats.reached > 0;
    if (auto median = Finite(summary.median); median && reached) {
      auto low = Finite(summary.min), high = Finite(summary.max);
      if (low && high) tta_plot.VerticalWhisker(*threshold, *low, *high, "#4e79a7");
      tta_plot.Dot(*threshold, *median, 4, "#4e79a7",
                   fmt::format("threshold {}: median TTA of the runs that reached {} {}", label,
                               FormatMagnitude(*median), TimeUnitSymbol(unit)));
    }
    if (auto km_median = Finite(row.stats.time_to_target.median)) {
      tta_plot.Dot(*threshold, *km_median, 3.5, "#f28e2b",
                   fmt::format("threshold {}: Kaplan-Meier median {} {}", label, FormatMagnitude(*km_median),
                               TimeUnitSymbol(unit)),
                   true);
    }
    if (auto hit_rate = Finite(row.stats.hit_rate)) {
      const stats::Interval& interval = row.stats.hit_rate_interval;
      auto low = Finite(interval.lower), high = Finite(interval.upper);
      if (low && high) hit_plot.VerticalWhisker(*threshold, *low, *high, "#59a14f");
      hit_plot.Dot(*threshold, *hit_rate, 4, "#59a14f",
                   fmt::format("threshold {}: {}/{} runs reached", label, row.stats.reached, row.stats.runs));
    }
  }
  return chart.Finish();
}

}  // namespace evalsuite::reports
