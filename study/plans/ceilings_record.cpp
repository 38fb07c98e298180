#include "study/plans/ceilings_record.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "common/atomic_file.h"
#include "common/child_process.h"
#include "common/cpu_features.h"
#include "common/environment.h"
#include "common/error.h"
#include "common/file_kind.h"
#include "common/json_fields.h"
#include "common/json_guard.h"
#include "common/onednn_isa_cap.h"
#include "common/theoretical_peak.h"
#include "entries/precision_choice.h"
#include "study/plans/ceilings_json.h"
#include "study/plans/slurm_options.h"
#include "study/plans/study_plan.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json TheoreticalMachine(const StudyPlan& plan) {
  const TheoreticalPeak peak = DeriveTheoreticalPeak(ThisCpu(), plan.threads);
  return {{"threads", plan.threads},
          {"cpu_model", ThisCpu().model},
          {"peak_fp32_flops", peak.derived ? json(peak.fp32_flops_per_second) : json()},
          {"peak_bf16_flops", peak.derived ? json(peak.bf16_flops_per_second) : json()},
          {"bandwidth_bytes", json()},
          {"theoretical", TheoreticalPeakToJson(peak)}};
}

double Giga(const json& machine, const char* key) {
  const auto it = machine.find(key);
  return it != machine.end() && it->is_number() ? it->get<double>() / 1e9 : 0.0;
}

// The step timings the precision choice decides from (training/step_probe.h): each row names its entry, precision
// and batch size and has a positive median step time, or the file is refused naming the row and field.
void CheckStepProbes(const json& machine, const std::string& where) {
  const json* rows = OptionalArray(machine, entries::kStepProbesKey, where);
  if (rows == nullptr) return;
  for (size_t i = 0; i < rows->size(); ++i) {
    const json& row = (*rows)[i];
    const std::string at = fmt::format("{}.{}[{}]", where, entries::kStepProbesKey, i);
    RequireObject(row, at);
    RequiredString(row, "entry", at);
    const std::string precision = RequiredString(row, "precision", at);
    if (precision != "fp32" && precision != "bf16") {
      throw InputError(at + ".precision", "must be \"fp32\" or \"bf16\", got \"" + precision + "\"");
    }
    RequiredInteger(row, "batch_size", at, 1);
    const std::optional<double> seconds = OptionalNumber(row, "seconds_per_step", at);
    if (!seconds || !(*seconds > 0)) {
      throw InputError(at + ".seconds_per_step", "must be a positive number of seconds");
    }
  }
}

}  // namespace

bool HasMeasuredCeilings(const json& environment) {
  if (!environment.is_object() || !environment.contains(kCeilingsKey)) return false;
  const json& record = environment[kCeilingsKey];
  if (!record.is_object()) return false;
  const CeilingsRecordFacts facts = DecodeCeilingsRecord(record);
  return (facts.source == "measured" || facts.source == "file") && facts.has_machine;
}

json ReadCeilingsFile(const fs::path& file) {
  RequireReadableFile(file, "a machine ceilings file (written by `evalsuite machine --json`)");
  std::ifstream in(file);
  if (!in) {
    throw IoError(file.string(), "cannot read the machine ceilings file (written by `evalsuite machine --json`)");
  }
  std::stringstream text;
  text << in.rdbuf();
  const json whole = ParseUserJson(text.str(), file.string());
  const bool section = whole.is_object() && whole.contains("machine");
  const json& machine = section ? whole["machine"] : whole;
  const std::string where = file.string() + (section ? ": machine" : ":");
  RequireObject(machine, where);
  const std::optional<double> peak = OptionalNumber(machine, "peak_fp32_flops", where);
  if (!peak || !(*peak > 0)) {
    throw InputError(where + ".peak_fp32_flops",
                     "must be a positive number of FLOP/s (is this a file `evalsuite machine --json` wrote?)");
  }
  for (const char* key : {"peak_bf16_flops", "bandwidth_bytes"}) {
    const std::optional<double> v = OptionalNumber(machine, key, where);
    if (v && *v < 0) throw InputError(where + "." + key, "must be >= 0");
  }
  CheckStepProbes(machine, where);
  return machine;
}

json MeasureCeilingsInChild(const fs::path& evalsuite_binary, const StudyPlan& plan, const fs::path& work_dir) {
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  if (ec) throw IoError(work_dir.string(), "cannot create the folder for the machine probe: " + ec.message());
  const fs::path out = work_dir / "machine_ceilings.json";
  fs::remove(out, ec);
  ChildSpec spec;
  const std::string threads = std::to_string(plan.threads);
  spec.argv = {evalsuite_binary.string(), "machine", "--quick", "--threads", threads, "--json", out.string()};
  spec.working_dir = work_dir;
  spec.stdout_file = work_dir / "machine_ceilings.stdout.txt";
  spec.stderr_file = work_dir / "machine_ceilings.stderr.txt";
  // As the runs get them (run_execution.cpp): the thread pools, and the plan's oneDNN cap switch.
  spec.environment = {{"OMP_NUM_THREADS", threads}, {"MKL_NUM_THREADS", threads}};
  if (!plan.onednn_isa_cap) spec.environment[kIsaCapSwitchVariable] = "off";
  ChildProcess child(spec);
  const ChildExit exit = child.Wait();
  if (!exit.exit_status || *exit.exit_status != 0) {
    throw ExternalError(evalsuite_binary.string() + " machine --quick",
                        DescribeExit(exit) + ": " + TailOfFile(spec.stderr_file, 5));
  }
  return ReadCeilingsFile(out);
}

std::optional<json> ObtainCeilings(const StudyPlan& plan, const json& recorded_environment,
                                   const CeilingsProbe& probe) {
  if (HasMeasuredCeilings(recorded_environment)) return std::nullopt;
  const bool recorded_any = recorded_environment.is_object() && recorded_environment.contains(kCeilingsKey);
  const std::string host = HostName();
  json record = {{"recorded_at", UtcNowIso8601()}, {"host", host}, {"executor", plan.executor}};
  if (plan.machine_ceilings == kSkipCeilings) {
    if (recorded_any) return std::nullopt;
    record["measurement"] = "skipped (machine_ceilings = \"skip\")";
  } else if (plan.machine_ceilings == kMeasureCeilings) {
    if (!probe) return std::nullopt;
    try {
      record["machine"] = probe(plan);
      record["source"] = "measured";
      record["where"] =
          plan.executor == kSlurmExecutor
              ? "the coordinator's machine (" + host +
                    ", where `study run` ran), not the Slurm compute nodes the runs used"
              : fmt::format("this study's machine ({}), before its runs, with their {} thread(s)", host, plan.threads);
      return record;
    } catch (const Error& e) {
      record["measurement"] = std::string("the probe failed: ") + e.what();
    }
  } else {
    record["machine"] = ReadCeilingsFile(plan.machine_ceilings);
    record["source"] = "file";
    record["file"] = plan.machine_ceilings;
    record["where"] =
        "read from " + plan.machine_ceilings + " (measured " + CeilingsMeasuredAtFromJson(record["machine"]) + ")";
    return record;
  }
  record["source"] = "theoretical";
  record["machine"] = TheoreticalMachine(plan);
  record["where"] = "the CPU's theoretical peak (" + host + "), nothing measured";
  return record;
}

void WriteCeilingsForRuns(const json& record, const fs::path& file) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  WriteFileAtomically(file, (record.is_null() ? json::object() : record).dump(2) + "\n");
}

json ReadCeilingsFileOrNull(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw IoError(file.string(), "cannot read the machine ceilings file");
  std::stringstream text;
  text << in.rdbuf();
  const json whole = ParseUserJson(text.str(), file.string());
  if (whole.is_object() && (whole.contains("source") || whole.empty())) {
    return HasMeasuredCeilings(json{{kCeilingsKey, whole}}) ? ReadCeilingsFile(file) : json(nullptr);
  }
  return ReadCeilingsFile(file);
}

std::string DescribeCeilings(const json& record) {
  const json& m = record.contains("machine") ? record["machine"] : json::object();
  std::string text =
      fmt::format("machine ceilings ({}): peak fp32 {:.1f} GFLOP/s, bf16 {:.1f} GFLOP/s",
                  DecodeCeilingsRecord(record).where, Giga(m, "peak_fp32_flops"), Giga(m, "peak_bf16_flops"));
  if (Giga(m, "bandwidth_bytes") > 0) text += fmt::format(", triad {:.1f} GB/s", Giga(m, "bandwidth_bytes"));
  if (record.contains("measurement")) text += "; " + record["measurement"].get<std::string>();
  if (m.contains("load_note") && m["load_note"].is_string()) text += "; caution: " + m["load_note"].get<std::string>();
  return text;
}

}  // namespace evalsuite::study
