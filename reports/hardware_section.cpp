#include "reports/hardware_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/json_access.h"
#include "reports/svg_chart.h"
#include "reports/value_format.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

double Num(const json& obj, const char* key) { return NumberOf(Field(obj, key)).value_or(0.0); }

std::string Giga(double v) { return v > 0 ? fmt::format("{:.2f}", v / 1e9) : "—"; }
std::string Mebi(double v) { return fmt::format("{:.2f}", v / (1024.0 * 1024.0)); }
std::string Share(double part, double whole) { return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "—"; }

// "312000.00 GFLOP/s (table: NVIDIA A100 datasheet ...)": an external entry's peak and where it came from; the
// built-in entries' peak is the machine's measured one.
std::string PeakSource(const json& e) {
  if (!Field(e, "peak_source").is_string()) return "measured on this machine";
  const double peak = Num(e, "peak_flops");
  return peak > 0 ? fmt::format("{} GFLOP/s ({})", Giga(peak), StringOf(Field(e, "peak_source")))
                  : StringOf(Field(e, "peak_source"));
}

// Each entry's points: its phases, or the entry itself when it has none.
std::vector<json> Points(const json& entry) {
  std::vector<json> points;
  for (const json& phase : ArrayOf(Field(entry, "phases"))) points.push_back(phase);
  if (points.empty()) points.push_back(entry);
  return points;
}

}  // namespace

bool HasHardwareSection(const json& section) {
  return section.is_object() && (section.contains("machine") || !ArrayOf(Field(section, "entries")).empty());
}

ReportTable HardwareMachineTable(const json& section) {
  const json& m = Field(section, "machine");
  ReportTable t;
  t.header = {"Ceiling", "Measured", "How"};
  t.numeric = {false, true, false};
  if (!m.is_object()) return t;  // only external entries: their ceilings are in the entries table
  if (const json& source = Field(m, "ceilings_source"); source.is_object()) {
    t.rows.push_back({"ceilings used", StringOf(Field(source, "kind")), StringOf(Field(source, "where"))});
  }
  for (const json& p : ArrayOf(Field(m, "probes"))) {
    const bool bytes = StringOf(Field(p, "unit")) == "bytes/s";
    t.rows.push_back({StringOf(Field(p, "name")),
                      fmt::format("{} {}", Giga(Num(p, "best")), bytes ? "GB/s" : "GFLOP/s"),
                      fmt::format("{} (median {})", StringOf(Field(p, "shape")), Giga(Num(p, "median")))});
  }
  t.rows.push_back({"peak fp32 / bf16", fmt::format("{} / {} GFLOP/s", Giga(Num(m, "peak_fp32_flops")),
                                                    Giga(Num(m, "peak_bf16_flops"))),
                    "best probe per precision (MFU's denominator)"});
  t.rows.push_back({"ridge fp32", fmt::format("{:.1f} FLOP/byte", Num(m, "ridge_fp32")), "peak / bandwidth"});
  const json& theory = Field(m, "theoretical");
  t.rows.push_back({"theoretical fp32 / bf16",
                    fmt::format("{} / {} GFLOP/s", Giga(Num(theory, "fp32_flops_per_second")),
                                Giga(Num(theory, "bf16_flops_per_second"))),
                    Field(theory, "note").is_string()
                        ? StringOf(Field(theory, "derivation")) + "; " + StringOf(Field(theory, "note"))
                        : StringOf(Field(theory, "derivation"))});
  t.rows.push_back({"cpu", fmt::format("{} cores, {} threads", StringOf(Field(m, "cores")), StringOf(Field(m, "threads"))),
                    StringOf(Field(m, "cpu_model"))});
  // Other work on the probe's cores lowers the peak and raises every MFU: say how busy the machine was
  // (common/machine_load.h).
  if (const json& busy = Field(m, "busy_cores_before"); busy.is_number()) {
    const json& note = Field(m, "load_note");
    const json& load = Field(m, "load_average_1m");
    t.rows.push_back({"other work as measured",
                      fmt::format("{:.2f} cores busy", busy.get<double>()) +
                          (load.is_number() ? fmt::format(" (load {:.2f})", load.get<double>()) : ""),
                      note.is_string() ? "CAUTION: " + note.get<std::string>()
                                       : "in the half second before the probe: its cores were free"});
  }
  return t;
}

ReportTable HardwareEntriesTable(const json& section) {
  ReportTable t;
  t.header = {"Entry", "Side", "Precision", "Batch", "MFLOP/sample", "KB/sample", "FLOP/byte", "Samples/s",
              "GFLOP/s", "MFU", "Bound", "Peak (source)"};
  t.numeric = {false, true, false, true, true, true, true, true, true, true, false, false};
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    for (const json& p : Points(e)) {
      t.rows.push_back({StringOf(Field(e, "entry")), StringOf(Field(p, "side"), "—"), StringOf(Field(e, "precision")),
                        StringOf(Field(e, "batch_size")), fmt::format("{:.3f}", Num(p, "flops_per_sample") / 1e6),
                        fmt::format("{:.1f}", Num(p, "bytes_per_sample") / 1e3),
                        fmt::format("{:.2f}", Num(p, "intensity")), fmt::format("{:.0f}", Num(p, "samples_per_second")),
                        Giga(Num(p, "achieved_flops")), FormatPercent(Field(p, "mfu"), 1),
                        StringOf(Field(p, "bound"), StringOf(Field(e, "bound"))), PeakSource(e)});
    }
  }
  return t;
}

ReportTable HardwareTimeTable(const json& section) {
  ReportTable t;
  t.header = {"Entry", "Data", "Forward", "Backward", "Optimizer", "Evaluation", "Idle", "Evaluation in a full run"};
  t.numeric = {false, true, true, true, true, true, true, true};
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    const json& time = Field(e, "time");
    if (!time.is_object()) continue;  // an external entry: its log has no step timings
    const double wall = Num(time, "wall");
    t.rows.push_back({StringOf(Field(e, "entry")), Share(Num(time, "data"), wall), Share(Num(time, "forward"), wall),
                      Share(Num(time, "backward"), wall), Share(Num(time, "optimizer"), wall),
                      Share(Num(time, "evaluation"), wall), Share(Num(time, "idle"), wall),
                      FormatPercent(Field(Field(e, "full_run_estimate"), "evaluation_share"), 1)});
  }
  return t;
}

ReportTable HardwareMemoryTable(const json& section) {
  ReportTable t;
  t.header = {"Entry (MiB)", "Parameters", "Gradients", "Optimizer", "Activations", "Temporaries", "Input batch",
              "Dataset", "Steady", "Peak (counted)", "Peak RSS"};
  t.numeric = {false, true, true, true, true, true, true, true, true, true, true};
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    const json& m = Field(e, "memory");
    if (!m.is_object()) continue;
    t.rows.push_back({StringOf(Field(e, "entry")), Mebi(Num(m, "parameters")), Mebi(Num(m, "gradients")),
                      Mebi(Num(m, "optimizer_state")), Mebi(Num(m, "activations")), Mebi(Num(m, "temporaries")),
                      Mebi(Num(m, "input_batch")), Mebi(Num(m, "dataset")), Mebi(Num(m, "steady")),
                      Mebi(Num(m, "peak")), Mebi(Num(m, "peak_rss"))});
  }
  return t;
}

std::vector<std::string> HardwareBottleneckSentences(const json& section) {
  std::vector<std::string> sentences;
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    const json& time = Field(e, "time");
    const double stepped = Num(time, "data") + Num(time, "forward") + Num(time, "backward") + Num(time, "optimizer");
    std::string text = fmt::format("{} is {}: {} (MFU {})", StringOf(Field(e, "entry")),
                                   StringOf(Field(e, "bound"), "unknown"), StringOf(Field(e, "evidence")),
                                   FormatPercent(Field(e, "mfu"), 1));
    if (stepped > 0) {
      text += fmt::format("; of its step time, data {} , optimizer {}", Share(Num(time, "data"), stepped),
                          Share(Num(time, "optimizer"), stepped));
    }
    sentences.push_back(text + ".");
  }
  return sentences;
}

std::string RooflineChart(const json& section) {
  const json& m = Field(section, "machine");
  const double bandwidth = Num(m, "bandwidth_bytes");
  const double peak32 = Num(m, "peak_fp32_flops"), peak16 = Num(m, "peak_bf16_flops");
  // Log-log axes drawn on the kit's linear plot: the plot's domain is in log10 units, the ticks are decades.
  double lo_i = 0.1, hi_i = 100, lo_f = 1e8, hi_f = std::max({peak32, peak16, 1e9}) * 2;
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    hi_f = std::max(hi_f, Num(e, "peak_flops") * 2);  // an external entry's device roof
    for (const json& p : Points(e)) {
      if (Num(p, "intensity") > 0) lo_i = std::min(lo_i, Num(p, "intensity") / 2), hi_i = std::max(hi_i, Num(p, "intensity") * 2);
      if (Num(p, "achieved_flops") > 0) lo_f = std::min(lo_f, Num(p, "achieved_flops") / 2);
    }
  }
  const double x0 = std::floor(std::log10(lo_i)), x1 = std::ceil(std::log10(hi_i));
  const double y0 = std::floor(std::log10(lo_f)), y1 = std::ceil(std::log10(hi_f));
  SvgChart chart("roofline", 720, 420, "Roofline: achieved FLOP/s against operational intensity");
  Plot plot(chart, {80, 30, 600, 300}, {x0, x1}, {y0, y1});
  AxisSpec x_axis{"operational intensity (FLOP/byte, log scale)", TickStyle::kNumber, false};
  AxisSpec y_axis{"GFLOP/s (log scale)", TickStyle::kNumber, false};
  plot.Axes(x_axis, y_axis);
  for (double d = x0; d <= x1; d += 1) {
    chart.Text(plot.X(d), plot.area().top + plot.area().height + 16, fmt::format("{:g}", std::pow(10.0, d)), "middle",
               "tick");
  }
  for (double d = y0; d <= y1; d += 1) {
    chart.Text(plot.area().left - 6, plot.Y(d) + 4, fmt::format("{:g}", std::pow(10.0, d) / 1e9), "end", "tick");
  }
  std::vector<LegendItem> legend;
  auto roof = [&](double peak, double bandwidth, const std::string& color, const std::string& label) {
    if (!(peak > 0) || !(bandwidth > 0)) return;
    std::vector<std::pair<double, double>> line;
    const double ridge = std::log10(peak / bandwidth);
    line.push_back({x0, std::log10(bandwidth) + x0});
    if (ridge > x0 && ridge < x1) line.push_back({ridge, std::log10(peak)});
    line.push_back({x1, std::min(std::log10(peak), std::log10(bandwidth) + x1)});
    plot.Polyline(line, color, 2.0, false, label);
    legend.push_back({label, color, LegendItem::Mark::kLine});
  };
  roof(peak32, bandwidth, SeriesColor(9), fmt::format("fp32 roof {} GFLOP/s, {} GB/s", Giga(peak32), Giga(bandwidth)));
  if (peak16 > 0) roof(peak16, bandwidth, SeriesColor(8), fmt::format("bf16 roof {} GFLOP/s", Giga(peak16)));
  // External entries' devices: each its own roof (peak and bandwidth of all its devices), drawn once per pair.
  std::vector<std::pair<double, double>> drawn;
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    const double peak = Num(e, "peak_flops"), bw = Num(e, "peak_bandwidth");
    if (!(peak > 0) || !(bw > 0) || std::find(drawn.begin(), drawn.end(), std::make_pair(peak, bw)) != drawn.end()) {
      continue;
    }
    drawn.push_back({peak, bw});
    roof(peak, bw, SeriesColor(7 - (drawn.size() - 1) % 4),
         fmt::format("{} roof {} GFLOP/s, {} GB/s", StringOf(Field(e, "device"), StringOf(Field(e, "entry"))),
                     Giga(peak), Giga(bw)));
  }
  std::size_t i = 0;
  for (const json& e : ArrayOf(Field(section, "entries"))) {
    const std::string color = SeriesColor(i++);
    for (const json& p : Points(e)) {
      const double intensity = Num(p, "intensity"), achieved = Num(p, "achieved_flops");
      if (!(intensity > 0) || !(achieved > 0)) continue;
      const std::string side = NumberOf(Field(p, "side")) ? fmt::format(" {}x{}", StringOf(Field(p, "side")),
                                                                         StringOf(Field(p, "side")))
                                                           : "";
      plot.Dot(std::log10(intensity), std::log10(achieved), 5, color,
               fmt::format("{}{}: {:.2f} FLOP/byte, {} GFLOP/s, MFU {}", StringOf(Field(e, "entry")), side, intensity,
                           Giga(achieved), FormatPercent(Field(p, "mfu"), 1)));
    }
    legend.push_back({StringOf(Field(e, "entry")), color, LegendItem::Mark::kDot});
  }
  const double used = chart.Legend(legend, 80, 375, 600);
  chart.set_height(static_cast<int>(375 + used + 10));
  return chart.Finish();
}

}  // namespace evalsuite::reports
