// The hardware section (reports/hardware_section.h has its JSON shape) as plain structs: what its tables, sentences
// and roofline read. ParseHardwareSection fills them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace evalsuite::reports {

// ParseHardwareSection reads the section's JSON once (after the study's ceilings
// were applied, reports/hardware_ceilings.h); report.json shows the JSON. Text fields hold what the producer wrote
// (a number as its JSON text); an absent figure reads as 0, as the tables have always shown it.
struct HardwarePointModel {  // a progressive-resize phase, or the entry itself when it has none
  std::optional<std::string> side;
  bool side_is_number = false;
  double flops_per_sample = 0, bytes_per_sample = 0, intensity = 0, samples_per_second = 0, achieved_flops = 0;
  std::optional<double> mfu;
  std::optional<std::string> bound;
};

struct HardwareTimeModel {  // seconds of the profiled run
  double data = 0, forward = 0, backward = 0, optimizer = 0, evaluation = 0, idle = 0, wall = 0;
};

struct HardwareMemoryModel {  // bytes
  double parameters = 0, gradients = 0, optimizer_state = 0, activations = 0, temporaries = 0, input_batch = 0,
         dataset = 0, steady = 0, peak = 0, peak_rss = 0;
};

struct HardwareEntryModel {
  std::string entry, precision, batch_size, evidence;
  std::optional<std::string> bound, peak_source, device;
  std::optional<double> mfu;
  double peak_flops = 0, peak_bandwidth = 0;
  std::vector<HardwarePointModel> points;
  std::optional<HardwareTimeModel> time;      // none for an external entry (its log has no step timings)
  std::optional<double> evaluation_share;     // of a full run
  std::optional<HardwareMemoryModel> memory;  // none for an external entry
};

struct HardwareProbeModel {
  std::string name, shape;
  bool bytes = false;  // a bandwidth probe
  double best = 0, median = 0;
};

struct HardwareMachineModel {
  std::optional<std::pair<std::string, std::string>> ceilings_source;  // kind, where
  std::vector<HardwareProbeModel> probes;
  double peak_fp32_flops = 0, peak_bf16_flops = 0, ridge_fp32 = 0, bandwidth_bytes = 0;
  double theoretical_fp32 = 0, theoretical_bf16 = 0;
  std::string theoretical_derivation;
  std::optional<std::string> theoretical_note;
  std::string cores, threads, cpu_model;
  std::optional<double> busy_cores_before, load_average_1m;
  std::optional<std::string> load_note;
};

struct HardwareSectionModel {
  std::optional<HardwareMachineModel> machine;  // none for a section of external entries alone
  std::vector<HardwareEntryModel> entries;
};

}  // namespace evalsuite::reports
