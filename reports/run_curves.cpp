#include "reports/run_curves.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "analysis/run_counting.h"
#include "stats/curve.h"

namespace evalsuite::reports {
namespace {

constexpr double kQuantiles[] = {0.1, 0.25, 0.5, 0.75, 0.9};

// numpy's default ("linear") quantile of sorted values.
double SortedQuantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

// A run's evaluations with a finite time and metric, in time order (a log's order when times tie).
std::vector<stats::CurvePoint> FiniteCurve(const analysis::Run& run) {
  std::vector<stats::CurvePoint> curve;
  for (const auto& p : run.points) {
    if (std::isfinite(p.time) && std::isfinite(p.metric)) curve.push_back(p);
  }
  std::stable_sort(curve.begin(), curve.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
  return curve;
}

// At each of kBandTimes times from 0 to the longest counted run, the quantiles of the metric over the counted runs
// still training then (first evaluation <= t <= last): each at its latest evaluation at or before t.
std::vector<BandRowModel> Band(const analysis::Entry& entry, std::size_t& runs) {
  std::vector<std::vector<stats::CurvePoint>> curves;
  double end = 0;
  for (const analysis::Run* run : analysis::CountedRuns(entry)) {
    curves.push_back(FiniteCurve(*run));
    if (!curves.back().empty()) end = std::max(end, curves.back().back().time);
  }
  std::vector<std::vector<double>> at(kBandTimes);
  for (const auto& curve : curves) {
    std::size_t next = 0;  // the first evaluation after t
    for (std::size_t k = 0; k < kBandTimes && !curve.empty(); ++k) {
      const double t = end * static_cast<double>(k) / static_cast<double>(kBandTimes - 1);
      if (t > curve.back().time) break;
      while (next < curve.size() && curve[next].time <= t) ++next;
      if (next > 0) at[k].push_back(curve[next - 1].metric);
    }
  }
  std::vector<BandRowModel> rows;
  for (std::size_t k = 0; k < kBandTimes; ++k) {
    BandRowModel row;
    row.time = end * static_cast<double>(k) / static_cast<double>(kBandTimes - 1);
    row.runs = at[k].size();
    std::sort(at[k].begin(), at[k].end());
    std::optional<double>* quantiles[] = {&row.q10, &row.q25, &row.median, &row.q75, &row.q90};
    for (std::size_t i = 0; i < 5 && !at[k].empty(); ++i) *quantiles[i] = SortedQuantile(at[k], kQuantiles[i]);
    rows.push_back(row);
  }
  runs = curves.size();
  return rows;
}

// Beyond kRunsDrawnInFull runs: the fastest, median and slowest counted runs that reached the target, and the first
// two counted runs that did not (positions in entry.runs, with their role).
std::vector<std::pair<std::size_t, std::string>> RunsOfBand(const analysis::Entry& entry,
                                                            const std::vector<std::optional<double>>& tta) {
  std::vector<std::size_t> reached, missed;
  const std::vector<bool> counted = analysis::CountedFlags(entry);
  for (std::size_t i = 0; i < entry.runs.size(); ++i) {
    if (!counted[i]) continue;
    (tta[i] ? reached : missed).push_back(i);
  }
  std::stable_sort(reached.begin(), reached.end(), [&](std::size_t a, std::size_t b) { return *tta[a] < *tta[b]; });
  std::vector<std::pair<std::size_t, std::string>> drawn;
  auto add = [&](std::size_t position, const char* role) {
    for (const auto& [p, r] : drawn) {
      if (p == position) return;
    }
    drawn.emplace_back(position, role);
  };
  if (!reached.empty()) {
    add(reached.front(), "fastest");
    add(reached[(reached.size() - 1) / 2], "median");
    add(reached.back(), "slowest");
  }
  for (std::size_t i = 0; i < missed.size() && i < 2; ++i) add(missed[i], "did not reach");
  return drawn;
}

}  // namespace

CurvesModel EntryCurves(const analysis::Entry& entry, double threshold, std::size_t consecutive) {
  double max_time = 0;
  double metric_min = std::numeric_limits<double>::infinity(), metric_max = -metric_min;
  std::vector<std::optional<double>> tta;
  tta.reserve(entry.runs.size());
  for (const analysis::Run& run : entry.runs) {
    if (const double spent = analysis::TimeCurveOf(run).time_spent; std::isfinite(spent))
      max_time = std::max(max_time, spent);
    for (const auto& p : run.points) {
      if (std::isfinite(p.time)) max_time = std::max(max_time, p.time);
      if (std::isfinite(p.metric)) {
        metric_min = std::min(metric_min, p.metric);
        metric_max = std::max(metric_max, p.metric);
      }
    }
    tta.push_back(stats::TimeToTarget(run.points, threshold, consecutive));
  }
  const bool banded = entry.runs.size() > kRunsDrawnInFull;
  std::vector<std::pair<std::size_t, std::string>> drawn;
  if (banded) {
    drawn = RunsOfBand(entry, tta);
  } else {
    for (std::size_t i = 0; i < entry.runs.size(); ++i) drawn.emplace_back(i, "");
  }
  CurvesModel out;
  const std::vector<bool> counted = analysis::CountedFlags(entry);
  for (const auto& [position, role] : drawn) {
    const analysis::Run& run = entry.runs[position];
    out.drawn.push_back(
        {run.index, analysis::RunStatusName(run.status), counted[position], tta[position], role, run.points});
  }
  out.runs = entry.runs.size();
  out.max_time = max_time;
  out.metric_min = metric_min;
  out.metric_max = metric_max;
  out.drawn_rule = banded ? fmt::format(
                                "more than {} runs: the band, and the fastest, median and slowest run "
                                "that reached the target and the first two that did not",
                                kRunsDrawnInFull)
                          : std::string("every run");
  out.banded = banded;
  if (banded) out.band = Band(entry, out.band_runs);
  return out;
}

std::string RunPointsJsonLines(const StabilityReportInput& input) {
  std::string text;
  for (const analysis::Entry& entry : input.entries) {
    for (std::size_t i = 0; i < entry.runs.size(); ++i) {
      const analysis::Run& run = entry.runs[i];
      nlohmann::ordered_json line = nlohmann::ordered_json::object();
      line["entry"] = entry.name;
      line["run"] = i;
      line["index"] = run.index;
      nlohmann::ordered_json points = nlohmann::ordered_json::array();
      for (const auto& p : run.points) {
        points.push_back(
            {std::isfinite(p.time) ? nlohmann::ordered_json(p.time) : nlohmann::ordered_json(nullptr),
             std::isfinite(p.metric) ? nlohmann::ordered_json(p.metric) : nlohmann::ordered_json(nullptr)});
      }
      line["points"] = std::move(points);
      text += line.dump();
      text += '\n';
    }
  }
  return text;
}

}  // namespace evalsuite::reports
