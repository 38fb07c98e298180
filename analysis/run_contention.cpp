#include "analysis/run_contention.h"

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

json ContentionNumberOrNull(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

std::optional<double> ContentionNumberIn(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<std::string> ContentionTextIn(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

json ContentionToJson(const RunContention& c) {
  json out = json::object();
  if (c.seconds) out["seconds"] = *c.seconds;
  if (c.cpus) out["cpus"] = *c.cpus;
  if (c.cores) out["cores"] = *c.cores;
  if (c.sample_seconds) out["sample_seconds"] = *c.sample_seconds;
  out["steal_fraction"] = ContentionNumberOrNull(c.steal_fraction);
  out["other_busy_cores"] = ContentionNumberOrNull(c.other_busy_cores);
  // The monitor writes its own and the study's share only beside a measured figure for other work.
  if (c.other_busy_cores || c.own_busy_cores) out["own_busy_cores"] = ContentionNumberOrNull(c.own_busy_cores);
  if (c.study_busy_cores) out["study_busy_cores"] = *c.study_busy_cores;
  if (c.why) out["why"] = *c.why;
  if (c.load_average_1m) {
    json load = json::object();
    if (c.load_average_1m->mean) load["mean"] = *c.load_average_1m->mean;
    if (c.load_average_1m->max) load["max"] = *c.load_average_1m->max;
    if (c.load_average_1m->samples) load["samples"] = *c.load_average_1m->samples;
    out["load_average_1m"] = std::move(load);
  } else {
    out["load_average_1m"] = nullptr;
  }
  out["cpu_pressure_some"] = ContentionNumberOrNull(c.cpu_pressure_some);
  if (c.method) out["method"] = *c.method;
  if (c.seen_from) out["seen_from"] = *c.seen_from;
  return out;
}

RunContention ContentionFromJson(const json& record) {
  RunContention c;
  if (!record.is_object()) return c;
  c.seconds = ContentionNumberIn(record, "seconds");
  if (const auto it = record.find("cpus"); it != record.end() && it->is_array()) {
    std::vector<int> cpus;
    for (const json& cpu : *it) {
      if (cpu.is_number_integer()) cpus.push_back(cpu.get<int>());
    }
    c.cpus = std::move(cpus);
  }
  if (const auto it = record.find("cores"); it != record.end() && it->is_number()) c.cores = it->get<int>();
  c.sample_seconds = ContentionNumberIn(record, "sample_seconds");
  c.steal_fraction = ContentionNumberIn(record, "steal_fraction");
  c.other_busy_cores = ContentionNumberIn(record, "other_busy_cores");
  c.own_busy_cores = ContentionNumberIn(record, "own_busy_cores");
  c.study_busy_cores = ContentionNumberIn(record, "study_busy_cores");
  c.why = ContentionTextIn(record, "why");
  if (const auto it = record.find("load_average_1m"); it != record.end() && it->is_object()) {
    LoadAverageSamples load;
    load.mean = ContentionNumberIn(*it, "mean");
    load.max = ContentionNumberIn(*it, "max");
    if (const auto n = it->find("samples"); n != it->end() && n->is_number_unsigned()) {
      load.samples = n->get<std::size_t>();
    }
    c.load_average_1m = load;
  }
  c.cpu_pressure_some = ContentionNumberIn(record, "cpu_pressure_some");
  c.method = ContentionTextIn(record, "method");
  c.seen_from = ContentionTextIn(record, "seen_from");
  return c;
}

bool RunWasBusy(const RunContention& contention) {
  return (contention.other_busy_cores && *contention.other_busy_cores >= kBusyOtherCores) ||
         (contention.steal_fraction && *contention.steal_fraction >= kBusyStealFraction);
}

}  // namespace evalsuite::analysis
