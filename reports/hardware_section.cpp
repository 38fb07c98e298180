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

std::string Giga(double v) { return v > 0 ? fmt::format("{:.2f}", v / 1e9) : "—"; }
std::string Mebi(double v) { return fmt::format("{:.2f}", v / (1024.0 * 1024.0)); }
std::string Share(double part, double whole) { return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "—"; }

std::optional<std::string> StringIn(const json& object, const char* key) {
  const json& value = Field(object, key);
  return value.is_string() ? std::optional<std::string>(value.get<std::string>()) : std::nullopt;
}

HardwarePointModel PointOf(const json& p) {
  HardwarePointModel point;
  point.side = OptionalTextOf(Field(p, "side"));
  point.side_is_number = Field(p, "side").is_number();
  point.flops_per_sample = NumberOrZero(p, "flops_per_sample");
  point.bytes_per_sample = NumberOrZero(p, "bytes_per_sample");
  point.intensity = NumberOrZero(p, "intensity");
  point.samples_per_second = NumberOrZero(p, "samples_per_second");
  point.achieved_flops = NumberOrZero(p, "achieved_flops");
  point.mfu = NumberOf(Field(p, "mfu"));
  point.bound = OptionalTextOf(Field(p, "bound"));
  return point;
}

HardwareEntryModel EntryOf(const json& e) {
  HardwareEntryModel entry;
  entry.entry = StringOf(Field(e, "entry"));
  entry.precision = StringOf(Field(e, "precision"));
  entry.batch_size = StringOf(Field(e, "batch_size"));
  entry.evidence = StringOf(Field(e, "evidence"));
  entry.bound = OptionalTextOf(Field(e, "bound"));
  entry.peak_source = StringIn(e, "peak_source");
  entry.device = OptionalTextOf(Field(e, "device"));
  entry.mfu = NumberOf(Field(e, "mfu"));
  entry.peak_flops = NumberOrZero(e, "peak_flops");
  entry.peak_bandwidth = NumberOrZero(e, "peak_bandwidth");
  // Each entry's points: its phases, or the entry itself when it has none.
  for (const json& phase : ArrayOf(Field(e, "phases"))) entry.points.push_back(PointOf(phase));
  if (entry.points.empty()) entry.points.push_back(PointOf(e));
  if (const json& time = Field(e, "time"); time.is_object()) {
    entry.time = HardwareTimeModel{NumberOrZero(time, "data"),       NumberOrZero(time, "forward"),
                                   NumberOrZero(time, "backward"),   NumberOrZero(time, "optimizer"),
                                   NumberOrZero(time, "evaluation"), NumberOrZero(time, "idle"),
                                   NumberOrZero(time, "wall")};
  }
  entry.evaluation_share = NumberOf(Field(Field(e, "full_run_estimate"), "evaluation_share"));
  if (const json& m = Field(e, "memory"); m.is_object()) {
    entry.memory = HardwareMemoryModel{
        NumberOrZero(m, "parameters"),  NumberOrZero(m, "gradients"),   NumberOrZero(m, "optimizer_state"),
        NumberOrZero(m, "activations"), NumberOrZero(m, "temporaries"), NumberOrZero(m, "input_batch"),
        NumberOrZero(m, "dataset"),     NumberOrZero(m, "steady"),      NumberOrZero(m, "peak"),
        NumberOrZero(m, "peak_rss")};
  }
  return entry;
}

HardwareMachineModel MachineOf(const json& m) {
  HardwareMachineModel machine;
  if (const json& source = Field(m, "ceilings_source"); source.is_object()) {
    machine.ceilings_source = std::make_pair(StringOf(Field(source, "kind")), StringOf(Field(source, "where")));
  }
  for (const json& p : ArrayOf(Field(m, "probes"))) {
    machine.probes.push_back({StringOf(Field(p, "name")), StringOf(Field(p, "shape")),
                              StringOf(Field(p, "unit")) == "bytes/s", NumberOrZero(p, "best"),
                              NumberOrZero(p, "median")});
  }
  machine.peak_fp32_flops = NumberOrZero(m, "peak_fp32_flops");
  machine.peak_bf16_flops = NumberOrZero(m, "peak_bf16_flops");
  machine.ridge_fp32 = NumberOrZero(m, "ridge_fp32");
  machine.bandwidth_bytes = NumberOrZero(m, "bandwidth_bytes");
  const json& theory = Field(m, "theoretical");
  machine.theoretical_fp32 = NumberOrZero(theory, "fp32_flops_per_second");
  machine.theoretical_bf16 = NumberOrZero(theory, "bf16_flops_per_second");
  machine.theoretical_derivation = StringOf(Field(theory, "derivation"));
  machine.theoretical_note = StringIn(theory, "note");
  machine.cores = StringOf(Field(m, "cores"));
  machine.threads = StringOf(Field(m, "threads"));
  machine.cpu_model = StringOf(Field(m, "cpu_model"));
  if (const json& busy = Field(m, "busy_cores_before"); busy.is_number())
    machine.busy_cores_before = busy.get<double>();
  if (const json& load = Field(m, "load_average_1m"); load.is_number()) machine.load_average_1m = load.get<double>();
  machine.load_note = StringIn(m, "load_note");
  return machine;
}

// "312000.00 GFLOP/s (table: NVIDIA A100 datasheet ...)": an external entry's peak and where it came from; the
// built-in entries' peak is the machine's measured one.
std::string PeakSource(const HardwareEntryModel& e) {
  if (!e.peak_source) return "measured on this machine";
  return e.peak_flops > 0 ? fmt::format("{} GFLOP/s ({})", Giga(e.peak_flops), *e.peak_source) : *e.peak_source;
}

}  // namespace

bool HasHardwareSection(const json& section) {
  return section.is_object() && (section.contains("machine") || !ArrayOf(Field(section, "entries")).empty());
}

HardwareSectionModel ParseHardwareSection(const json& section) {
  HardwareSectionModel out;
  if (const json& m = Field(section, "machine"); m.is_object()) out.machine = MachineOf(m);
  for (const json& e : ArrayOf(Field(section, "entries"))) out.entries.push_back(EntryOf(e));
  return out;
}

ReportTable HardwareMachineTable(const HardwareSectionModel& section) {
  ReportTable t;
  t.header = {"Ceiling", "Measured", "How"};
  t.numeric = {false, true, false};
  if (!section.machine) return t;  // only external entries: their ceilings are in the entries table
  const HardwareMachineModel& m = *section.machine;
  if (m.ceilings_source) t.rows.push_back({"ceilings used", m.ceilings_source->first, m.ceilings_source->second});
  for (const HardwareProbeModel& p : m.probes) {
    t.rows.push_back({p.name, fmt::format("{} {}", Giga(p.best), p.bytes ? "GB/s" : "GFLOP/s"),
                      fmt::format("{} (median {})", p.shape, Giga(p.median))});
  }
  t.rows.push_back({"peak fp32 / bf16",
                    fmt::format("{} / {} GFLOP/s", Giga(m.peak_fp32_flops), Giga(m.peak_bf16_flops)),
                    "best probe per precision (MFU's denominator)"});
  t.rows.push_back({"ridge fp32", fmt::format("{:.1f} FLOP/byte", m.ridge_fp32), "peak / bandwidth"});
  t.rows.push_back(
      {"theoretical fp32 / bf16", fmt::format("{} / {} GFLOP/s", Giga(m.theoretical_fp32), Giga(m.theoretical_bf16)),
       m.theoretical_note ? m.theoretical_derivation + "; " + *m.theoretical_note : m.theoretical_derivation});
  t.rows.push_back({"cpu", fmt::format("{} cores, {} threads", m.cores, m.threads), m.cpu_model});
  // Other work on the probe's cores lowers the peak and raises every MFU: say how busy the machine was
  // (common/machine_load.h).
  if (m.busy_cores_before) {
    t.rows.push_back(
        {"other work as measured",
         fmt::format("{:.2f} cores busy", *m.busy_cores_before) +
             (m.load_average_1m ? fmt::format(" (load {:.2f})", *m.load_average_1m) : ""),
         m.load_note ? "CAUTION: " + *m.load_note : "in the half second before the probe: its cores were free"});
  }
  return t;
}

ReportTable HardwareEntriesTable(const HardwareSectionModel& section) {
  ReportTable t;
  t.header = {"Entry",     "Side",      "Precision", "Batch", "MFLOP/sample", "KB/sample",
              "FLOP/byte", "Samples/s", "GFLOP/s",   "MFU",   "Bound",        "Peak (source)"};
  t.numeric = {false, true, false, true, true, true, true, true, true, true, false, false};
  for (const HardwareEntryModel& e : section.entries) {
    for (const HardwarePointModel& p : e.points) {
      t.rows.push_back({e.entry, p.side.value_or("—"), e.precision, e.batch_size,
                        fmt::format("{:.3f}", p.flops_per_sample / 1e6),
                        fmt::format("{:.1f}", p.bytes_per_sample / 1e3), fmt::format("{:.2f}", p.intensity),
                        fmt::format("{:.0f}", p.samples_per_second), Giga(p.achieved_flops), FormatPercent(p.mfu, 1),
                        p.bound ? *p.bound : e.bound.value_or(""), PeakSource(e)});
    }
  }
  return t;
}

ReportTable HardwareTimeTable(const HardwareSectionModel& section) {
  ReportTable t;
  t.header = {"Entry", "Data", "Forward", "Backward", "Optimizer", "Evaluation", "Idle", "Evaluation in a full run"};
  t.numeric = {false, true, true, true, true, true, true, true};
  for (const HardwareEntryModel& e : section.entries) {
    if (!e.time) continue;  // an external entry: its log has no step timings
    const HardwareTimeModel& time = *e.time;
    const double wall = time.wall;
    t.rows.push_back({e.entry, Share(time.data, wall), Share(time.forward, wall), Share(time.backward, wall),
                      Share(time.optimizer, wall), Share(time.evaluation, wall), Share(time.idle, wall),
                      FormatPercent(e.evaluation_share, 1)});
  }
  return t;
}

ReportTable HardwareMemoryTable(const HardwareSectionModel& section) {
  ReportTable t;
  t.header = {"Entry (MiB)", "Parameters", "Gradients", "Optimizer",      "Activations", "Temporaries",
              "Input batch", "Dataset",    "Steady",    "Peak (counted)", "Peak RSS"};
  t.numeric = {false, true, true, true, true, true, true, true, true, true, true};
  for (const HardwareEntryModel& e : section.entries) {
    if (!e.memory) continue;
    const HardwareMemoryModel& m = *e.memory;
    t.rows.push_back({e.entry, Mebi(m.parameters), Mebi(m.gradients), Mebi(m.optimizer_state), Mebi(m.activations),
                      Mebi(m.temporaries), Mebi(m.input_batch), Mebi(m.dataset), Mebi(m.steady), Mebi(m.peak),
                      Mebi(m.peak_rss)});
  }
  return t;
}

std::vector<std::string> HardwareBottleneckSentences(const HardwareSectionModel& section) {
  std::vector<std::string> sentences;
  for (const HardwareEntryModel& e : section.entries) {
    const HardwareTimeModel time = e.time.value_or(HardwareTimeModel{});
    const double stepped = time.data + time.forward + time.backward + time.optimizer;
    std::string text =
        fmt::format("{} is {}: {} (MFU {})", e.entry, e.bound.value_or("unknown"), e.evidence, FormatPercent(e.mfu, 1));
    if (stepped > 0) {
      text += fmt::format("; of its step time, data {} , optimizer {}", Share(time.data, stepped),
                          Share(time.optimizer, stepped));
    }
    sentences.push_back(text + ".");
  }
  return sentences;
}

std::string RooflineChart(const HardwareSectionModel& section) {
  const HardwareMachineModel m = section.machine.value_or(HardwareMachineModel{});
  const double bandwidth = m.bandwidth_bytes;
  const double peak32 = m.peak_fp32_flops, peak16 = m.peak_bf16_flops;
  // Log-log axes drawn on the kit's linear plot: the plot's domain is in log10 units, the ticks are decades.
  double lo_i = 0.1, hi_i = 100, lo_f = 1e8, hi_f = std::max({peak32, peak16, 1e9}) * 2;
  for (const HardwareEntryModel& e : section.entries) {
    hi_f = std::max(hi_f, e.peak_flops * 2);  // an external entry's device roof
    for (const HardwarePointModel& p : e.points) {
      if (p.intensity > 0) lo_i = std::min(lo_i, p.intensity / 2), hi_i = std::max(hi_i, p.intensity * 2);
      if (p.achieved_flops > 0) lo_f = std::min(lo_f, p.achieved_flops / 2);
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
  for (const HardwareEntryModel& e : section.entries) {
    const double peak = e.peak_flops, bw = e.peak_bandwidth;
    if (!(peak > 0) || !(bw > 0) || std::find(drawn.begin(), drawn.end(), std::make_pair(peak, bw)) != drawn.end()) {
      continue;
    }
    drawn.push_back({peak, bw});
    roof(peak, bw, SeriesColor(7 - (drawn.size() - 1) % 4),
         fmt::format("{} roof {} GFLOP/s, {} GB/s", e.device.value_or(e.entry), Giga(peak), Giga(bw)));
  }
  std::size_t i = 0;
  for (const HardwareEntryModel& e : section.entries) {
    const std::string color = SeriesColor(i++);
    for (const HardwarePointModel& p : e.points) {
      const double intensity = p.intensity, achieved = p.achieved_flops;
      if (!(intensity > 0) || !(achieved > 0)) continue;
      const std::string side = p.side_is_number ? fmt::format(" {}x{}", *p.side, *p.side) : "";
      plot.Dot(std::log10(intensity), std::log10(achieved), 5, color,
               fmt::format("{}{}: {:.2f} FLOP/byte, {} GFLOP/s, MFU {}", e.entry, side, intensity, Giga(achieved),
                           FormatPercent(p.mfu, 1)));
    }
    legend.push_back({e.entry, color, LegendItem::Mark::kDot});
  }
  const double used = chart.Legend(legend, 80, 375, 600);
  chart.set_height(static_cast<int>(375 + used + 10));
  return chart.Finish();
}

}  // namespace evalsuite::reports
