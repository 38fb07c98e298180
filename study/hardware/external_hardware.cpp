#include "study/hardware/external_hardware.h"

#include <fmt/format.h>

#include <cmath>

#include "common/accelerator_peaks.h"
#include "common/json_number.h"
#include "runlog/declared_hardware.h"
#include "stats/descriptive.h"
#include "stats/roofline.h"

namespace evalsuite::study {
namespace {

using nlohmann::json;

// The run's devices' peak and bandwidth (declared, else the table's) and where each came from.
struct Ceiling {
  double peak_flops = 0;
  double bandwidth = 0;
  std::string peak_source;  // "declared by the log", "table: NVIDIA A100 datasheet (...)", "no peak: why"
  std::string bandwidth_source;
};

Ceiling CeilingOf(const runlog::DeclaredHardware& d) {
  Ceiling c;
  const std::optional<AcceleratorPeak> row =
      d.device.empty() ? std::nullopt : LookUpAcceleratorPeak(d.device, d.precision);
  const std::string times = d.device_count > 1 ? fmt::format(" x {} devices", d.device_count) : "";
  if (d.peak_flops) {
    c.peak_flops = *d.peak_flops * d.device_count;
    c.peak_source = "declared by the log" + times;
  } else if (row) {
    c.peak_flops = row->peak_flops * d.device_count;
    c.peak_source = fmt::format("table: {} ({}, {}){}", row->source, row->device, row->precision, times);
  } else if (d.device.empty()) {
    c.peak_source = "no peak: the log declares neither peak_flops nor a device";
  } else if (d.precision.empty()) {
    c.peak_source = "no peak: declare precision (or peak_flops) for device \"" + d.device + "\"";
  } else {
    c.peak_source = "no peak: \"" + d.device + "\" at " + d.precision + " is not in the device table";
  }
  if (d.peak_bandwidth) {
    c.bandwidth = *d.peak_bandwidth * d.device_count;
    c.bandwidth_source = "declared by the log" + times;
  } else if (row) {
    c.bandwidth = row->bandwidth * d.device_count;
    c.bandwidth_source = fmt::format("table: {} ({}){}", row->source, row->device, times);
  }
  return c;
}

}  // namespace

std::optional<json> ExternalHardwareEntry(const std::string& entry, const std::vector<store::RunRecord>& runs) {
  std::optional<runlog::DeclaredHardware> declared;
  json run_rows = json::array();
  std::vector<double> rates;
  for (const store::RunRecord& run : runs) {
    if (!store::IsDoneRun(run)) continue;
    const runlog::DeclaredHardware d = runlog::ReadDeclaredHardware(run.log.header, "", nullptr);
    if (!d.Declared()) continue;
    if (!declared) declared = d;
    // The last evaluation: the most training the log measured; its train_seconds exclude evaluation.
    const runlog::EvalPoint* last = nullptr;
    for (const runlog::EvalPoint& p : run.log.points) {
      if (p.epoch > 0 && p.train_seconds > 0) last = &p;
    }
    if (last == nullptr || !d.samples_per_epoch) continue;
    const double samples = last->epoch * *d.samples_per_epoch;
    const double rate = samples / last->train_seconds;
    if (!std::isfinite(rate)) continue;  // an epoch or time at the edge of double's range: no figure, no crash
    rates.push_back(rate);
    const Ceiling c = CeilingOf(d);
    const double achieved = rate * *d.flops_per_sample;
    run_rows.push_back({{"index", run.run_index},
                        {"samples", JsonNumber(samples)},
                        {"train_seconds", JsonNumber(last->train_seconds)},
                        {"samples_per_second", JsonNumber(rate)},
                        {"achieved_flops", JsonNumber(achieved)},
                        {"mfu", c.peak_flops > 0 ? JsonNumber(achieved / c.peak_flops) : json(nullptr)}});
  }
  if (!declared) return std::nullopt;
  const runlog::DeclaredHardware& d = *declared;
  const Ceiling c = CeilingOf(d);
  json out = {{"entry", entry},
              {"source", "external"},
              {"figures_source", "declared by the log"},
              {"device", d.device.empty() ? json(nullptr) : json(d.device)},
              {"device_count", d.device_count},
              {"precision", d.precision.empty() ? json("—") : json(d.precision)},
              {"flops_per_sample", JsonNumber(*d.flops_per_sample)},
              {"bytes_per_sample", JsonNumber(d.bytes_per_sample)},
              {"intensity", d.bytes_per_sample ? JsonNumber(*d.flops_per_sample / *d.bytes_per_sample) : json(nullptr)},
              {"peak_flops", c.peak_flops > 0 ? JsonNumber(c.peak_flops) : json(nullptr)},
              {"peak_bandwidth", c.bandwidth > 0 ? JsonNumber(c.bandwidth) : json(nullptr)},
              {"peak_source", c.peak_source},
              {"bandwidth_source", c.bandwidth_source.empty() ? json(nullptr) : json(c.bandwidth_source)},
              {"runs", run_rows}};
  for (const store::RunRecord& run : runs) {
    const json& h = run.log.header;
    if (h.contains("hyperparameters") && h["hyperparameters"].is_object() &&
        h["hyperparameters"].contains("batch_size")) {
      out["batch_size"] = h["hyperparameters"]["batch_size"];
      break;
    }
  }
  if (rates.empty()) {
    out["samples_per_second"] = nullptr;
    out["achieved_flops"] = nullptr;
    out["mfu"] = nullptr;
    out["bound"] = "unknown";
    out["evidence"] =
        d.samples_per_epoch
            ? "no finished run has an evaluation with epoch and training time that give a finite throughput"
            : "the log declares no samples_per_epoch, so its throughput is unknown";
    return out;
  }
  const double rate = stats::Median(rates);
  const double achieved = rate * *d.flops_per_sample;
  out["samples_per_second"] = JsonNumber(rate);
  out["achieved_flops"] = JsonNumber(achieved);
  out["mfu"] = c.peak_flops > 0 ? JsonNumber(achieved / c.peak_flops) : json(nullptr);
  std::string evidence;
  std::string bound = "unknown";
  if (d.bytes_per_sample && c.peak_flops > 0 && c.bandwidth > 0) {
    const stats::BottleneckVerdict v =
        stats::ClassifyBottleneck(*d.flops_per_sample / *d.bytes_per_sample, achieved, {c.peak_flops, c.bandwidth});
    bound = stats::BottleneckName(v.bound);
    evidence = v.evidence;
  } else {
    evidence = !d.bytes_per_sample ? "no bytes_per_sample declared, so no operational intensity"
               : c.peak_flops > 0  ? "no memory bandwidth declared or known for the device"
                                   : c.peak_source;
  }
  evidence += fmt::format(" (median of {} run{}: {:.4g} samples/s)", rates.size(), rates.size() == 1 ? "" : "s", rate);
  if (c.peak_flops > 0 && achieved > c.peak_flops) {
    evidence += "; achieved FLOP/s exceed the peak: flops_per_sample or the peak is wrong";
  }
  out["bound"] = bound;
  out["evidence"] = evidence;
  return out;
}

}  // namespace evalsuite::study
