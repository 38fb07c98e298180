// The machine ceilings a study records once, in its environment (key "machine_ceilings"), for the report's MFU
// and roofline: measured at the study's start by `evalsuite machine --quick` run as a child (the LibTorch probe
// lives in evalsuite-full, and a child keeps the probe's threads apart from the study), read from a file that
// `evalsuite machine --json` wrote, or, when skipped, the CPU's theoretical peak alone. The plan key
// `machine_ceilings` says which: "measure" (default), "skip", or the file's path.
//
// Record: {"source": "measured" | "file" | "theoretical", "machine": {"peak_fp32_flops", "peak_bf16_flops",
//          "bandwidth_bytes", "threads", "cpu_model", "theoretical", "probes", ...}, "recorded_at", "host",
//          "executor", "where": "what machine the figures are of", "file" (source file), "measurement" (why not
//          measured, when not)}
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace evalsuite::study {

struct StudyPlan;

constexpr const char* kCeilingsKey = "machine_ceilings";
constexpr const char* kMeasureCeilings = "measure";
constexpr const char* kSkipCeilings = "skip";
// The default of `machine_ceilings` when neither the study file nor a flag says (e.g. "skip" on a CI machine).
constexpr const char* kCeilingsDefaultVariable = "EVALSUITE_MACHINE_CEILINGS";

// Measures the machine's ceilings with the study's thread count; returns the "machine" object of
// `evalsuite machine --json`. Throws (ExternalError) when the probe fails.
using CeilingsProbe = std::function<nlohmann::json(const StudyPlan& plan)>;

// True when `environment` holds ceilings that were measured or read from a file (not just the theoretical peak):
// such a study is not measured again.
bool HasMeasuredCeilings(const nlohmann::json& environment);

// Reads an `evalsuite machine --json` file (the whole section or its "machine" object) and checks the figures the
// report divides by. InputError/IoError naming the file and the field at fault.
nlohmann::json ReadCeilingsFile(const std::filesystem::path& file);

// Runs `evalsuite_binary machine --quick --threads T --json FILE` in `work_dir` (its output files stay there) and
// reads what it wrote. ExternalError with the child's exit and stderr tail when it fails.
nlohmann::json MeasureCeilingsInChild(const std::filesystem::path& evalsuite_binary, const StudyPlan& plan,
                                      const std::filesystem::path& work_dir);

// The record to store for `plan`, or nullopt when there is nothing to record now (already measured in
// `recorded_environment`, or "measure" without a probe). A failed probe is recorded as theoretical with the reason,
// and the study goes on; a bad file is an error.
std::optional<nlohmann::json> ObtainCeilings(const StudyPlan& plan, const nlohmann::json& recorded_environment,
                                             const CeilingsProbe& probe);

// The file a study leaves in its run folder for its built-in runs' precision choice (entries/precision_choice.h):
// the ceilings record as stored, written before any run starts (local and Slurm alike), so that every run of the
// study decides from the same measured figures.
constexpr const char* kRunCeilingsFile = "machine_ceilings_for_runs.json";
void WriteCeilingsForRuns(const nlohmann::json& record, const std::filesystem::path& file);
// What `evalsuite train --precision-ceilings FILE` reads: a record WriteCeilingsForRuns wrote (null unless its
// ceilings were measured or read from a file: a theoretical peak says nothing about what bf16 runs at) or an
// `evalsuite machine --json` file. IoError/InputError as ReadCeilingsFile.
nlohmann::json ReadCeilingsFileOrNull(const std::filesystem::path& file);

// One line for the console: "machine ceilings: measured on host (2 threads): peak fp32 ... GFLOP/s, ...".
std::string DescribeCeilings(const nlohmann::json& record);

}  // namespace evalsuite::study
