#include "reports/hardware_ceilings.h"

#include <string>

#include "common/json_access.h"
#include "stats/roofline.h"

namespace evalsuite::reports {
namespace {
using nlohmann::json;

double PeakFor(const json& machine, const std::string& precision) {
  const double bf16 = NumberOrZero(machine, "peak_bf16_flops");
  return precision == "bf16" && bf16 > 0 ? bf16 : NumberOrZero(machine, "peak_fp32_flops");
}

// The study's record when it holds a usable peak, else null.
const json& StudyRecord(const json& environment) {
  static const json kNull;
  const json& record = Field(environment, "machine_ceilings");
  return NumberOrZero(Field(record, "machine"), "peak_fp32_flops") > 0 ? record : kNull;
}

std::string SourceLabel(const std::string& source) {
  if (source == "measured") return "measured in this study";
  if (source == "file") return "file";
  if (source == "theoretical") return "theoretical peak";
  return source;
}

// `machine` with the ridges computed from its own figures and the source said.
json WithSource(json machine, const std::string& source, const std::string& where) {
  const double bandwidth = NumberOrZero(machine, "bandwidth_bytes");
  for (const char* precision : {"fp32", "bf16"}) {
    const double peak = PeakFor(machine, precision);
    machine[std::string("ridge_") + precision] = bandwidth > 0 && peak > 0 ? json(peak / bandwidth) : json();
  }
  machine["ceilings_source"] = {{"kind", source}, {"where", where}};
  return machine;
}

// An external entry's figures are against its own (declared or tabled) device:
// study/hardware/external_hardware.h.
bool IsExternal(const json& entry) { return StringOf(Field(entry, "source")) == "external"; }

}  // namespace

json RateAgainstCeilings(json entry, const json& machine) {
  const double peak = PeakFor(machine, StringOf(Field(entry, "precision"), "fp32"));
  const stats::Ceilings ceilings{peak, NumberOrZero(machine, "bandwidth_bytes")};
  if (entry.contains("phases") && entry["phases"].is_array()) {
    for (json& phase : entry["phases"]) {
      if (!phase.is_object()) continue;
      const double achieved = NumberOrZero(phase, "achieved_flops");
      const stats::BottleneckVerdict v =
          stats::ClassifyBottleneck(NumberOrZero(phase, "intensity"), achieved, ceilings);
      phase["mfu"] = stats::ModelFlopsUtilization(achieved, peak);
      phase["bound"] = stats::BottleneckName(v.bound);
      phase["attainable_flops"] = v.attainable_flops;
    }
  }
  const double achieved = NumberOrZero(entry, "achieved_flops");
  const stats::BottleneckVerdict verdict =
      stats::ClassifyBottleneck(NumberOrZero(entry, "intensity"), achieved, ceilings);
  entry["peak_flops"] = peak;
  entry["mfu"] = stats::ModelFlopsUtilization(achieved, peak);
  entry["bound"] = stats::BottleneckName(verdict.bound);
  entry["attainable_flops"] = verdict.attainable_flops;
  entry["evidence"] = verdict.evidence;
  return entry;
}

json EntryFromHardwareRecord(const std::string& entry, int batch_size, int epochs, const json& hardware) {
  const double train_seconds = NumberOrZero(hardware, "train_seconds");
  return {{"entry", entry},
          {"precision", StringOf(Field(hardware, "precision"), "fp32")},
          {"batch_size", batch_size},
          {"epochs", epochs},
          {"flops_per_sample", NumberOrZero(hardware, "flops_per_sample")},
          {"bytes_per_sample", NumberOrZero(hardware, "bytes_per_sample")},
          {"intensity", NumberOrZero(hardware, "intensity")},
          {"samples_per_second", train_seconds > 0 ? NumberOrZero(hardware, "samples") / train_seconds : 0.0},
          {"achieved_flops", NumberOrZero(hardware, "achieved_flops")},
          {"phases", Field(hardware, "phases").is_array() ? hardware["phases"] : json::array()},
          {"time", Field(hardware, "time").is_object() ? hardware["time"] : json::object()},
          {"memory", Field(hardware, "memory").is_object() ? hardware["memory"] : json::object()}};
}

json ApplyStudyCeilings(const json& section, const json& environment) {
  const json& record = StudyRecord(environment);
  const std::string source = StringOf(Field(record, "source"));
  const bool study_measured = source == "measured" || source == "file";
  const bool section_measured = NumberOrZero(Field(section, "machine"), "peak_fp32_flops") > 0;
  bool rates_here = false;  // an entry that ran on this machine (external ones have their own device's peak)
  for (const json& entry : ArrayOf(Field(section, "entries"))) rates_here |= !IsExternal(entry);
  if (record.is_null() || (!study_measured && (section_measured || !rates_here))) {
    // No study ceilings, or only the theoretical peak where the section has measured ones (or nothing to rate):
    // as before this study recorded anything.
    if (!section_measured) return section;
    json out = section;
    out["machine"] = WithSource(section["machine"], "the hardware section's file",
                                "measured by `evalsuite machine` when the section was written");
    return out;
  }
  json out = section.is_object() ? section : json{{"entries", json::array()}};
  const std::string file = StringOf(Field(record, "file"));
  out["machine"] = WithSource(record["machine"], SourceLabel(source) + (file.empty() ? "" : " " + file),
                              StringOf(Field(record, "where")));
  if (out.contains("entries") && out["entries"].is_array()) {
    for (json& entry : out["entries"]) {
      if (!IsExternal(entry)) entry = RateAgainstCeilings(entry, out["machine"]);
    }
  }
  return out;
}

}  // namespace evalsuite::reports
