#include "store/analysis_entries.h"

#include <map>
#include <string>

#include "analysis/run_usage_json.h"
#include "common/json_access.h"

namespace evalsuite::store {
namespace {

using nlohmann::json;

int CountIn(const json& value) { return static_cast<int>(NumberOf(value).value_or(0)); }

// RunRecord::execution["gpu"] as gpu_sampler.h writes it; a field of another shape counts as absent.
analysis::RunGpuUse GpuUseOf(const json& gpu) {
  analysis::RunGpuUse use;
  use.sampled = Field(gpu, "sampled") == true;
  use.reason = StringOf(Field(gpu, "reason"));
  use.interval_seconds = NumberOf(Field(gpu, "interval_seconds")).value_or(0);
  use.samples = CountIn(Field(gpu, "samples"));
  use.failed_samples = CountIn(Field(gpu, "failed_samples"));
  const json& devices = Field(gpu, "devices");
  if (!devices.is_array()) return use;
  for (const json& d : devices) {
    analysis::GpuDeviceUse device;
    device.index = StringOf(Field(d, "index"));
    device.uuid = StringOf(Field(d, "uuid"));
    device.samples = CountIn(Field(d, "samples"));
    device.memory_total_mib = NumberOf(Field(d, "memory_total_mib"));
    device.peak_memory_used_mib = NumberOf(Field(d, "peak_memory_used_mib"));
    device.mean_utilization_percent = NumberOf(Field(d, "mean_utilization_percent"));
    device.utilization_samples = CountIn(Field(d, "utilization_samples"));
    use.devices.push_back(std::move(device));
  }
  return use;
}

std::string LastLines(const std::string& text, int lines) {
  std::size_t pos = text.size();
  for (int i = 0; i < lines && pos != std::string::npos && pos > 0; ++i) pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

}  // namespace

analysis::Run ToAnalysisRun(const RunRecord& run, bool resumable) {
  analysis::Run out;
  out.index = run.run_index;
  out.attempt = run.attempt;
  out.seeds = run.seeds;
  out.status = StatusOf(run, resumable);
  out.points.reserve(run.log.points.size());
  out.epochs.reserve(run.log.points.size());
  for (const runlog::EvalPoint& p : run.log.points) {
    out.points.push_back({p.train_seconds, p.metric});
    out.epochs.push_back(p.epoch);
  }
  out.time_spent = run.log.train_seconds;
  out.wall_seconds = run.log.wall_seconds;
  out.threads = run.threads;
  out.error = run.log.error;
  out.origin = run.run_dir;
  if (const json& usage = Field(run.execution, "usage"); usage.is_object())
    out.usage = analysis::RunUsageFromJson(usage);
  if (const json& gpu = Field(run.execution, "gpu"); gpu.is_object()) out.gpu = GpuUseOf(gpu);
  if (const json& c = Field(run.execution, "contention"); c.is_object())
    out.contention = analysis::ContentionFromJson(c);
  out.precision = analysis::RunPrecisionFromJson(Field(run.log.header, "precision_choice"));
  if (run.log.status != analysis::EndedAs::kReached && run.log.status != analysis::EndedAs::kNotReached &&
      !run.stderr_tail.empty()) {
    out.error += (out.error.empty() ? "" : "; ") + std::string("stderr: ") + LastLines(run.stderr_tail, 3);
  }
  return out;
}

std::vector<analysis::Entry> LoadAnalysisEntries(RunStore& store, const StudyInfo& study) {
  return AnalysisEntriesOf(store, study, store.LoadRuns(study.id));
}

std::vector<analysis::Entry> AnalysisEntriesOf(RunStore& store, const StudyInfo& study,
                                               const std::vector<RunRecord>& records) {
  const bool resumable = study.kind == "study";
  std::map<std::string, std::vector<analysis::Run>> runs;
  for (const RunRecord& run : records) runs[run.entry].push_back(ToAnalysisRun(run, resumable));
  std::vector<analysis::Entry> entries;
  for (const EntryRecord& record : store.LoadEntries(study.id)) {
    analysis::Entry e;
    static_cast<analysis::EntryFacts&>(e) = record;
    e.extra["study"] = study.name;
    e.runs = std::move(runs[record.name]);
    runs.erase(record.name);
    entries.push_back(std::move(e));
  }
  for (auto& [name, orphan_runs] : runs) {  // runs of an entry the store has no row for (should not happen)
    analysis::Entry e;
    e.name = name;
    e.runs = std::move(orphan_runs);
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace evalsuite::store
