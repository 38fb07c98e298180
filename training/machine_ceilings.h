// The machine's ceilings as this LibTorch reaches them, for MFU and the roofline: peak FLOP/s per precision
// (fp32 and bf16 matrix multiply and convolution at sizes that saturate them, with the runs' thread count) and
// memory bandwidth (a STREAM-style triad a = b + s * c over arrays far larger than the last-level cache), next to
// the CPU's facts and its theoretical peak where derivable. Plain structs; LibTorch stays in the .cpp.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/theoretical_peak.h"
#include "entries/builtin_entries.h"
#include "training/step_probe.h"

namespace evalsuite::training {

struct CeilingOptions {
  int threads = 0;                            // LibTorch intra-op threads; 0 = every core
  int repetitions = 5;                        // timed repetitions per probe; the best is the ceiling, all are kept
  double seconds_per_repetition = 0.2;        // each repetition repeats its kernel for at least this long
  int64_t triad_elements = int64_t{1} << 24;  // per array (64 MiB of floats each, 192 MiB in all)
  // Square matrix side of the matmul probes. Debian's LibTorch multiplies fp32 matrices with its generic BLAS
  // (about 1 s per 1024-side product on two cores) and bf16 ones with oneDNN.
  int64_t matmul_side = 1024;
  int64_t conv_batch = 8;
  // A few training steps of each form of every built-in entry whose recipe asks for bf16: what the precision choice
  // decides from (entries/precision_choice.h). Its threads are the probe's.
  StepProbeOptions steps;
};

struct ProbeResult {
  std::string name;                // "matmul_fp32", "conv_bf16", "triad_fp32"
  std::string kind;                // "matmul", "conv", "triad"
  std::string precision;           // "fp32", "bf16"
  std::string shape;               // what ran, e.g. "[2048x2048] x [2048x2048]"
  double work_per_call = 0;        // FLOPs (matmul, conv) or bytes (triad) of one kernel call
  std::vector<double> per_second;  // each repetition's FLOP/s or bytes/s
  double Best() const;
  double Median() const;
};

struct MachineCeilings {
  int threads = 0;
  int cores = 0;
  std::string cpu_model;
  nlohmann::json isa_flags;
  std::vector<ProbeResult> probes;
  double peak_fp32_flops = 0;  // best fp32 probe
  double peak_bf16_flops = 0;  // best bf16 probe (0 when bf16 kernels are not available)
  double bandwidth_bytes = 0;  // best triad repetition
  // TimeBf16EntrySteps' rows: both forms of every bf16 entry, a few training steps each.
  nlohmann::json step_probes = nlohmann::json::array();
  TheoreticalPeak theoretical;
  std::string measured_at;  // UTC ISO 8601
  // How busy the machine was as the probe started (common/machine_load.h): cores' worth of other work in the half
  // second before it, and the 1-minute load average.
  std::optional<double> busy_cores_before;
  std::optional<double> load_average_1m;
  std::string load_note;  // ProbeUnderLoadNote of the two: empty when the probe had its cores to itself

  // The peak for a run's precision ("fp32" or "bf16"), PaLM's MFU denominator.
  double PeakFor(const std::string& precision) const;
  // Where the roofline's slope meets the fp32 ceiling: FLOPs per byte.
  double RidgeIntensity(const std::string& precision) const;
};

// A probe of a few seconds on two cores (what a study records at its start, study/ceilings_record.h): a 512-side
// matmul, a batch-2 convolution, two repetitions of 0.1 s each; the triad keeps arrays far past the cache.
CeilingOptions QuickCeilingOptions(int threads);

MachineCeilings MeasureMachineCeilings(const CeilingOptions& options);
// Only what the precision choice reads (entries/precision_choice.h), for `evalsuite train ENTRY` without a study's
// ceilings: a few training steps of each of the entry's forms (step_probe.h), and the quick fp32 and bf16
// convolution probes for context; about a second on two cores. {"step_probes": [...], "probes": [...],
// "measured_at", "threads"} in the shape of MachineCeilingsToJson. Nothing is measured for an fp32 recipe.
nlohmann::json MeasurePrecisionProbes(const entries::BuiltinEntry& entry, int threads);
nlohmann::json MachineCeilingsToJson(const MachineCeilings& ceilings);

}  // namespace evalsuite::training
