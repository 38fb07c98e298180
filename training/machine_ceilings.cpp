#include "training/machine_ceilings.h"

#include <fmt/format.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

#include "common/cpu_features.h"
#include "common/environment.h"
#include "common/json_access.h"
#include "common/machine_load.h"
#include "common/onednn_isa_cap.h"
#include "entries/precision_choice.h"
#include "stats/descriptive.h"
#include "stats/roofline.h"

namespace evalsuite::training {
namespace {

using Clock = std::chrono::steady_clock;

// Repeats `call` for at least `min_seconds` per repetition after one warm-up call; returns work/s per repetition.
std::vector<double> TimeRepetitions(const std::function<void()>& call, double work_per_call, int repetitions,
                                    double min_seconds) {
  call();  // warm-up: oneDNN primitive creation, page faults
  std::vector<double> rates;
  for (int r = 0; r < repetitions; ++r) {
    int64_t calls = 0;
    const Clock::time_point start = Clock::now();
    double elapsed = 0;
    do {
      call();
      ++calls;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < min_seconds);
    rates.push_back(work_per_call * static_cast<double>(calls) / elapsed);
  }
  return rates;
}

ProbeResult MatmulProbe(at::ScalarType dtype, const std::string& precision, const CeilingOptions& o) {
  const int64_t kSide = o.matmul_side;  // 1024: 2.1 GFLOP per call, past every cache blocking
  const torch::Tensor a = torch::randn({kSide, kSide}).to(dtype);
  const torch::Tensor b = torch::randn({kSide, kSide}).to(dtype);
  torch::Tensor c = torch::empty({kSide, kSide}, a.options());
  ProbeResult p;
  p.name = "matmul_" + precision;
  p.kind = "matmul";
  p.precision = precision;
  p.shape = fmt::format("[{0}x{0}] x [{0}x{0}]", kSide);
  p.work_per_call = 2.0 * kSide * kSide * kSide;
  p.per_second =
      TimeRepetitions([&] { torch::mm_out(c, a, b); }, p.work_per_call, o.repetitions, o.seconds_per_repetition);
  return p;
}

ProbeResult ConvProbe(at::ScalarType dtype, const std::string& precision, const CeilingOptions& o) {
  // ResNet's 3x3 64->64 layer at 56x56, channels-last (oneDNN's fast path): 0.23 GFLOP per sample.
  const int64_t kBatch = o.conv_batch;
  constexpr int64_t kChannels = 64, kSide = 56;
  const torch::Tensor x =
      torch::randn({kBatch, kChannels, kSide, kSide}).to(dtype).contiguous(at::MemoryFormat::ChannelsLast);
  const torch::Tensor w =
      torch::randn({kChannels, kChannels, 3, 3}).to(dtype).contiguous(at::MemoryFormat::ChannelsLast);
  ProbeResult p;
  p.name = "conv_" + precision;
  p.kind = "conv";
  p.precision = precision;
  p.shape = fmt::format("[{}x64x56x56] conv 3x3 64->64, padding 1, channels-last", kBatch);
  p.work_per_call = 2.0 * kBatch * kChannels * kChannels * 9 * kSide * kSide;
  torch::NoGradGuard no_grad;
  p.per_second = TimeRepetitions([&] { (void)torch::conv2d(x, w, {}, 1, 1); }, p.work_per_call, o.repetitions,
                                 o.seconds_per_repetition);
  return p;
}

ProbeResult TriadProbe(const CeilingOptions& o) {
  const int64_t n = o.triad_elements;
  const torch::Tensor b = torch::rand({n});
  const torch::Tensor c = torch::rand({n});
  torch::Tensor a = torch::empty({n});
  ProbeResult p;
  p.name = "triad_fp32";
  p.kind = "triad";
  p.precision = "fp32";
  p.shape = "a = b + 3 * c, 3 arrays of " + std::to_string(n) + " floats";
  p.work_per_call = 3.0 * 4.0 * static_cast<double>(n);  // STREAM counts 2 reads + 1 write, no write-allocate
  p.per_second =
      TimeRepetitions([&] { torch::add_out(a, b, c, 3.0); }, p.work_per_call, o.repetitions, o.seconds_per_repetition);
  return p;
}

}  // namespace

double ProbeResult::Best() const {
  return per_second.empty() ? 0 : *std::max_element(per_second.begin(), per_second.end());
}

double ProbeResult::Median() const { return per_second.empty() ? 0 : stats::Median(per_second); }

double MachineCeilings::PeakFor(const std::string& precision) const {
  return precision == "bf16" && peak_bf16_flops > 0 ? peak_bf16_flops : peak_fp32_flops;
}

double MachineCeilings::RidgeIntensity(const std::string& precision) const {
  return stats::Ceilings{PeakFor(precision), bandwidth_bytes}.RidgeIntensity();  // the roofline's one definition
}

CeilingOptions QuickCeilingOptions(int threads) {
  CeilingOptions o;
  o.threads = threads;
  o.repetitions = 2;
  o.seconds_per_repetition = 0.1;
  o.matmul_side = 512;
  o.conv_batch = 2;
  o.triad_elements = int64_t{1} << 23;  // 32 MiB per array, 96 MiB in all: still past the last-level cache
  return o;
}

MachineCeilings MeasureMachineCeilings(const CeilingOptions& options) {
  PrepareOneDnnForThisMachine();
  MachineCeilings m;
  m.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  m.threads = options.threads > 0 ? options.threads : m.cores;
  torch::set_num_threads(m.threads);
  m.cpu_model = ThisCpu().model;
  m.isa_flags = RelevantIsaFlags(ThisCpu());
  m.theoretical = DeriveTheoreticalPeak(ThisCpu(), m.threads);
  m.measured_at = UtcNowIso8601();
  // Before the probe adds its own work: what others keep busy now, and the minute's average for context.
  m.busy_cores_before = BusyCoresOver(0.5);
  m.load_average_1m = LoadAverage1m();
  if (m.busy_cores_before) {
    m.load_note = ProbeUnderLoadNote(*m.busy_cores_before, m.load_average_1m.value_or(-1), m.cores, m.threads);
  }
  m.probes.push_back(MatmulProbe(torch::kFloat32, "fp32", options));
  m.probes.push_back(ConvProbe(torch::kFloat32, "fp32", options));
  // bf16 kernels may be missing from a LibTorch build or CPU: a probe that throws is left out, not fatal.
  for (auto* probe : {&MatmulProbe, &ConvProbe}) {
    try {
      m.probes.push_back(probe(torch::kBFloat16, "bf16", options));
    } catch (const c10::Error&) {
    }
  }
  m.probes.push_back(TriadProbe(options));
  StepProbeOptions steps = options.steps;
  steps.threads = m.threads;
  m.step_probes = TimeBf16EntrySteps(steps);
  for (const ProbeResult& p : m.probes) {
    if (p.kind == "triad")
      m.bandwidth_bytes = std::max(m.bandwidth_bytes, p.Best());
    else if (p.precision == "fp32")
      m.peak_fp32_flops = std::max(m.peak_fp32_flops, p.Best());
    else
      m.peak_bf16_flops = std::max(m.peak_bf16_flops, p.Best());
  }
  return m;
}

nlohmann::json MeasurePrecisionProbes(const entries::BuiltinEntry& entry, int threads) {
  if (entry.recipe.precision != "bf16") return nullptr;
  PrepareOneDnnForThisMachine();
  const CeilingOptions options = QuickCeilingOptions(threads);
  MachineCeilings m;
  m.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  m.threads = threads > 0 ? threads : m.cores;
  torch::set_num_threads(m.threads);
  m.measured_at = UtcNowIso8601();
  m.probes.push_back(ConvProbe(torch::kFloat32, "fp32", options));
  try {
    m.probes.push_back(ConvProbe(torch::kBFloat16, "bf16", options));
  } catch (const c10::Error&) {  // no bf16 convolution in this build: the choice falls back to fp32
  }
  nlohmann::json probes = nlohmann::json::array();
  for (const ProbeResult& p : m.probes) {
    probes.push_back({{"name", p.name}, {"precision", p.precision}, {"shape", p.shape}, {"best", p.Best()}});
  }
  StepProbeOptions steps;
  steps.threads = m.threads;
  return {{"measured_at", m.measured_at},
          {"threads", m.threads},
          {"probes", probes},
          {entries::kStepProbesKey, TimeEntrySteps(entry, steps)}};
}

namespace {

nlohmann::json TheoreticalWithNote(const MachineCeilings& m) {
  nlohmann::json out = TheoreticalPeakToJson(m.theoretical);
  const std::string note = MeasuredAboveTheoreticalNote(m.theoretical, m.peak_fp32_flops, m.peak_bf16_flops);
  if (!note.empty()) out["note"] = note;
  return out;
}

}  // namespace

nlohmann::json MachineCeilingsToJson(const MachineCeilings& m) {
  nlohmann::json probes = nlohmann::json::array();
  for (const ProbeResult& p : m.probes) {
    probes.push_back({{"name", p.name},
                      {"kind", p.kind},
                      {"precision", p.precision},
                      {"shape", p.shape},
                      {"work_per_call", p.work_per_call},
                      {"unit", p.kind == "triad" ? "bytes/s" : "FLOP/s"},
                      {"best", p.Best()},
                      {"median", p.Median()},
                      {"repetitions", p.per_second}});
  }
  return {{"measured_at", m.measured_at},
          {"threads", m.threads},
          {"cores", m.cores},
          {"cpu_model", m.cpu_model},
          {"isa_flags", m.isa_flags},
          {"peak_fp32_flops", m.peak_fp32_flops},
          {"peak_bf16_flops", m.peak_bf16_flops > 0 ? nlohmann::json(m.peak_bf16_flops) : nlohmann::json()},
          {"bandwidth_bytes", m.bandwidth_bytes},
          {"ridge_fp32", m.RidgeIntensity("fp32")},
          {"ridge_bf16", m.RidgeIntensity("bf16")},
          {"theoretical", TheoreticalWithNote(m)},
          {"busy_cores_before", JsonOrNull(m.busy_cores_before)},
          {"load_average_1m", JsonOrNull(m.load_average_1m)},
          {"load_note", m.load_note.empty() ? nlohmann::json() : nlohmann::json(m.load_note)},
          {"probes", probes},
          {entries::kStepProbesKey, m.step_probes},
          {"method",
           "best of the repetitions; FLOP/s of torch::mm_out and torch::conv2d at the shapes given, bytes/s of "
           "torch::add_out(a, b, c, 3) counted as STREAM does (2 reads + 1 write per element); step_probes: the "
           "median seconds of a few training steps of each form of the bf16 entries at their batch sizes"}};
}

}  // namespace evalsuite::training
