#include "reports/variance_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/stats_json.h"
#include "reports/svg_chart.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

json OptionalIntervalJson(const std::optional<stats::Interval>& interval) {
  return interval ? IntervalJson(*interval) : json(nullptr);
}

json ComponentsJson(const analysis::ResponseComponents& response) {
  json components = json::array();
  for (const stats::VarianceComponent& c : response.components.components) {
    components.push_back({{"source", c.name},
                          {"variance", c.variance},
                          {"variance_interval", OptionalIntervalJson(c.variance_interval)},
                          {"share", c.share},
                          {"share_interval", OptionalIntervalJson(c.share_interval)}});
  }
  return {{"response", response.response},
          {"runs_used", response.runs_used},
          {"runs_left_out", response.runs_left_out},
          {"left_out_reason", response.left_out_reason},
          {"withheld", response.components.withheld ? json(*response.components.withheld) : json(nullptr)},
          {"method", response.components.withheld ? json(nullptr) : json(response.components.method)},
          {"mean", response.components.withheld ? json(nullptr) : json(response.components.mean)},
          {"components", std::move(components)}};
}

json SourcesJson(const analysis::VarianceSources& v) {
  json shares = json::array();
  for (const analysis::SourceShare& s : v.shares) {
    shares.push_back({{"source", s.source},
                      {"share", s.share},
                      {"share_interval", OptionalIntervalJson(s.share_interval)},
                      {"cov_alone", s.cov_alone},
                      {"cov_alone_interval", OptionalIntervalJson(s.cov_alone_interval)}});
  }
  json responses = json::array();
  for (const analysis::ResponseComponents& r : v.responses) responses.push_back(ComponentsJson(r));
  json out = {{"varied", v.varied},
              {"runs", v.runs},
              {"not_reached", v.not_reached},
              {"failed", v.failed},
              {"levels", v.levels},
              {"repeats", v.repeats},
              {"withheld", v.withheld ? json(*v.withheld) : json(nullptr)},
              {"cov_tta", v.cov_tta ? json(*v.cov_tta) : json(nullptr)},
              {"shares", std::move(shares)},
              {"hold_to_halve", nullptr},
              {"levels_needed", nullptr},
              {"same_seeds", nullptr},
              {"responses", std::move(responses)}};
  if (v.hold_to_halve)
    out["hold_to_halve"] = {{"hold", v.hold_to_halve->hold}, {"cov_left", v.hold_to_halve->cov_left}};
  if (v.levels_needed) {
    out["levels_needed"] = {{"first", v.levels_needed->first},
                            {"second", v.levels_needed->second},
                            {"levels", v.levels_needed->levels ? json(*v.levels_needed->levels) : json(nullptr)},
                            {"repeats", v.levels_needed->repeats}};
  }
  if (v.same_seeds) {
    out["same_seeds"] = {
        {"cells", v.same_seeds->cells},         {"degrees_of_freedom", v.same_seeds->degrees_of_freedom},
        {"variance", v.same_seeds->variance},   {"variance_interval", IntervalJson(v.same_seeds->variance_interval)},
        {"identical", v.same_seeds->identical}, {"training_identical", v.same_seeds->training_identical}};
  }
  return out;
}

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  }
  return out;
}

std::string ResponseLabel(const std::string& response) {
  if (response == "ln_tta") return "ln TTA";
  if (response == "ln_epochs_to_target") return "ln epochs to target";
  if (response == "time_per_epoch") return "time per epoch";
  if (response == "final_metric") return "final metric";
  return response;
}

std::string ThreeDigits(double value) { return fmt::format("{:.3g}", value); }

}  // namespace

std::vector<EntryVarianceModel> VarianceSection(const StabilityReportInput& input) {
  std::vector<EntryVarianceModel> out;
  if (!input.settings.variance) return out;
  for (const analysis::Entry& entry : input.entries) {
    const analysis::DesignRuns runs =
        analysis::DesignRunsOf(entry, entry.threshold, input.settings.rule.consecutive_evaluations);
    out.push_back({entry.name, analysis::AnalyzeVarianceSources(runs, input.settings.variance->vary)});
  }
  return out;
}

json VarianceSectionJson(const std::vector<EntryVarianceModel>& section) {
  json out = json::array();
  for (const EntryVarianceModel& e : section) {
    json sources = SourcesJson(e.sources);
    sources["entry"] = e.entry;
    out.push_back(std::move(sources));
  }
  return out;
}

std::string SourceLabel(const std::string& source) {
  if (source == "init") return "initialization";
  if (source == "data_order") return "data order";
  if (source == "augmentation") return "augmentation";
  if (source == "residual") return "the residual (same seeds again, interactions)";
  return source;
}

std::string VarianceSummaryLine(const analysis::VarianceSources& v) {
  if (v.withheld) return "sources of variance withheld: " + *v.withheld;
  const analysis::ResponseComponents& tta = v.responses.front();
  if (tta.components.withheld) return "sources of TTA's variance withheld: " + *tta.components.withheld;
  if (!v.cov_tta) return "sources of TTA's variance: no figures";
  std::vector<std::string> parts;
  for (const analysis::SourceShare& s : v.shares) {
    parts.push_back(SourceLabel(s.source) + " " + FormatPercentInterval(s.share, s.share_interval, 0));
  }
  std::string line = "CoV of TTA " + FormatPercent(*v.cov_tta) + ", its variance from " + JoinWords(parts);
  if (v.hold_to_halve && !v.hold_to_halve->hold.empty()) {
    std::vector<std::string> held;
    for (const std::string& s : v.hold_to_halve->hold) held.push_back(SourceLabel(s));
    line += "; holding " + JoinWords(held) + " halves it (" + FormatPercent(v.hold_to_halve->cov_left) + ")";
  }
  return line;
}

std::vector<std::string> VarianceSentences(const analysis::VarianceSources& v) {
  std::vector<std::string> out;
  std::vector<std::string> varied;
  for (const std::string& source : v.varied) varied.push_back(SourceLabel(source));
  const std::string design =
      fmt::format("{} run{}: {} at {} seed{} {}, crossed; up to {} run{} per combination of seeds", v.runs,
                  v.runs == 1 ? "" : "s", JoinWords(varied), v.levels, v.levels == 1 ? "" : "s",
                  v.varied.size() == 1 ? "" : "each", v.repeats, v.repeats == 1 ? "" : "s");
  out.push_back("Design: " + design + ".");
  out.push_back(VarianceSummaryLine(v) + ".");
  if (v.withheld || v.shares.empty()) return out;
  std::vector<std::string> alone;
  for (const analysis::SourceShare& s : v.shares) {
    std::string text = SourceLabel(s.source) + " " + FormatPercent(s.cov_alone);
    if (s.cov_alone_interval) {
      // A source seen at 2 seeds has one degree of freedom: its upper bound can be any size, and a figure of
      // 4,810,840% would read as a measurement.
      const double upper = s.cov_alone_interval->upper;
      text += " [" + FormatPercent(s.cov_alone_interval->lower) + ", " +
              (upper > 10 ? std::string("over 1000%") : FormatPercent(upper)) + "]";
    }
    alone.push_back(text);
  }
  out.push_back("Alone, each would give a CoV of TTA of: " + JoinWords(alone) + ".");
  if (v.hold_to_halve && v.hold_to_halve->hold.empty()) {
    out.push_back("No choice of seeds to hold halves the CoV: with every seed held, the residual still gives " +
                  FormatPercent(v.hold_to_halve->cov_left) +
                  " (nondeterminism: threads, kernels, the machine, which deterministic kernels, one thread or a quiet "
                  "machine fix, not seeds; and the sources' interactions).");
  }
  if (const auto& n = v.levels_needed) {
    if (n->levels) {
      out.push_back(fmt::format(
          "Telling {} from {} (80% power, 5% two-sided F test) needs {} levels of each, crossed, {} per combination: "
          "{} runs.",
          SourceLabel(n->first), SourceLabel(n->second), *n->levels, n->repeats, *n->levels * *n->levels * n->repeats));
    } else {
      out.push_back("Telling " + SourceLabel(n->first) + " from " + SourceLabel(n->second) +
                    " apart would take more than 30 levels of each: their shares are too close to tell.");
    }
  }
  if (const auto& s = v.same_seeds) {
    if (s->identical) {
      out.push_back(fmt::format(
          "The same seeds gave the same TTA to the last digit in all {} repeated combinations: no nondeterminism seen.",
          s->cells));
    } else {
      out.push_back(fmt::format(
          "The same seeds run again varied ln TTA by an SD of {} [{}, {}] ({} repeated combinations, {} degrees of "
          "freedom).",
          ThreeDigits(std::sqrt(s->variance)), ThreeDigits(std::sqrt(s->variance_interval.lower)),
          ThreeDigits(std::sqrt(s->variance_interval.upper)), s->cells, s->degrees_of_freedom));
      if (s->training_identical) {
        out.push_back(
            "Yet every repeat gave the same epochs to target and the same final metric: the training repeated "
            "exactly, and that spread is the machine's time per epoch, not the training's.");
      }
    }
  } else if (v.repeats < 2) {
    out.push_back(
        "No combination of seeds was run twice: the residual holds nondeterminism and the sources' interactions "
        "together.");
  }
  if (v.not_reached > 0) {
    out.push_back(fmt::format("{} of {} runs did not reach the target and are left out of TTA and epochs to target.",
                              v.not_reached, v.runs));
  }
  if (v.failed > 0)
    out.push_back(fmt::format("{} run{} failed before reaching and are left out.", v.failed, v.failed == 1 ? "" : "s"));
  return out;
}

ReportTable VarianceComponentsTable(const analysis::VarianceSources& v) {
  ReportTable table;
  table.header = {"Response", "Source", "Variance [95% CI]", "Share [95% CI]", "Runs used"};
  table.numeric = {false, false, true, true, true};
  for (const analysis::ResponseComponents& r : v.responses) {
    if (r.components.withheld) {
      table.rows.push_back(
          {ResponseLabel(r.response), "withheld: " + *r.components.withheld, "", "", std::to_string(r.runs_used)});
      continue;
    }
    for (const stats::VarianceComponent& c : r.components.components) {
      std::string variance = ThreeDigits(c.variance);
      if (c.variance_interval) {
        variance +=
            " [" + ThreeDigits(c.variance_interval->lower) + ", " + ThreeDigits(c.variance_interval->upper) + "]";
      }
      table.rows.push_back({ResponseLabel(r.response), SourceLabel(c.name), variance,
                            FormatPercentInterval(c.share, c.share_interval, 0), std::to_string(r.runs_used)});
    }
  }
  return table;
}

std::string VarianceSharesChart(const std::vector<EntryVarianceModel>& section) {
  const double row_height = 46, left = 140, top = 30, width = 640;
  SvgChart chart("variance-sources", static_cast<int>(width), 0,
                 "Share of ln TTA's variance from each source, per entry, with 95% intervals");
  Plot plot(chart, {left, top, width - left - 20, row_height * static_cast<double>(section.size())}, {0.0, 1.0},
            {0.0, static_cast<double>(section.size())});
  plot.Axes({"share of ln TTA's variance", TickStyle::kPercent, true, 6}, {"", TickStyle::kNumber, false, 6});
  const std::vector<std::string> order = {"init", "data_order", "augmentation", "residual"};
  for (size_t row = 0; row < section.size(); ++row) {
    const analysis::VarianceSources& v = section[row].sources;
    // The y axis points up: the bar sits in the row's upper part, the whiskers under it.
    const double y_low = static_cast<double>(row) + 0.32, y_high = static_cast<double>(row) + 0.8;
    chart.Text(left - 8, plot.Y((y_low + y_high) / 2) + 4, section[row].entry, "end");
    double start = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const auto found = std::find_if(v.shares.begin(), v.shares.end(),
                                      [&](const analysis::SourceShare& s) { return s.source == order[k]; });
      if (found == v.shares.end()) continue;
      const std::string tip =
          SourceLabel(found->source) + ": " + FormatPercentInterval(found->share, found->share_interval, 0);
      plot.Box(start, start + found->share, y_low, y_high, SeriesColor(k), tip);
      if (found->share_interval) {
        // Where the segment's end would lie at its interval's ends, drawn under the bar.
        const double y = static_cast<double>(row) + 0.26 - 0.06 * static_cast<double>(k);
        plot.HorizontalWhisker(y, start + found->share_interval->lower,
                               std::min(1.0, start + found->share_interval->upper), SeriesColor(k));
      }
      start += found->share;
    }
    if (v.shares.empty()) plot.Label(0.5, (y_low + y_high) / 2, "withheld");
  }
  std::vector<LegendItem> legend;
  for (size_t k = 0; k < order.size(); ++k) {
    legend.push_back({SourceLabel(order[k]), SeriesColor(k), LegendItem::Mark::kBand});
  }
  const double legend_height =
      chart.Legend(legend, left, top + row_height * static_cast<double>(section.size()) + 36, width - left - 20);
  chart.set_height(static_cast<int>(top + row_height * static_cast<double>(section.size()) + 44 + legend_height));
  return chart.Finish();
}

}  // namespace evalsuite::reports
