#include "common/theoretical_peak.h"

#include <fmt/format.h>

namespace evalsuite {
namespace {

struct Core {
  std::string name;
  int fma_units = 0;
  int datapath_bits = 0;  // width of each FMA unit
};

// Sources: AMD's Software Optimization Guides for family 17h, 19h and 1Ah (FP pipes and their width; Zen 4
// executes 512-bit operations on 256-bit units, Zen 5 has full 512-bit units in its EPYC and desktop parts),
// Intel's optimization manual (two 256-bit FMA units since Haswell; two 512-bit FMA units on Xeon Scalable
// parts with AVX-512, assumed here, one on some Silver/Bronze parts).
Core Microarchitecture(const CpuFacts& cpu) {
  const bool avx512 = cpu.Has("avx512f");
  if (cpu.vendor == "AuthenticAMD") {
    if (cpu.family == 0x17) return cpu.model_number >= 0x30 ? Core{"Zen 2", 2, 256} : Core{"Zen/Zen+", 2, 128};
    if (cpu.family == 0x19) return avx512 ? Core{"Zen 4", 2, 256} : Core{"Zen 3", 2, 256};
    if (cpu.family == 0x1A) return Core{"Zen 5", 2, avx512 ? 512 : 256};
    return {};
  }
  if (cpu.vendor == "GenuineIntel") {
    if (avx512) return {"Intel with AVX-512 (2 FMA units assumed)", 2, 512};
    if (cpu.Has("avx2") && cpu.Has("fma")) return {"Intel with AVX2+FMA", 2, 256};
  }
  return {};
}

}  // namespace

TheoreticalPeak DeriveTheoreticalPeak(const CpuFacts& cpu, int cores) {
  TheoreticalPeak peak;
  const Core core = Microarchitecture(cpu);
  if (core.fma_units == 0) {
    peak.derivation = fmt::format("not derived: no table row for vendor '{}' family {} model {}", cpu.vendor,
                                  cpu.family, cpu.model_number);
    return peak;
  }
  if (cpu.mhz <= 0) {
    peak.derivation = "not derived: /proc/cpuinfo gives no 'cpu MHz'";
    return peak;
  }
  const int fp32_lanes = core.datapath_bits / 32;
  const double per_cycle = 2.0 * core.fma_units * fp32_lanes;  // FMA = 2 FLOPs
  peak.derived = true;
  peak.nominal_mhz = cpu.mhz;
  peak.fp32_flops_per_second = cores * cpu.mhz * 1e6 * per_cycle;
  // AVX-512 BF16's dot product (vdpbf16ps) does two bf16 multiply-adds per fp32 lane; without it bf16 is
  // converted to fp32 and runs at most at the fp32 rate.
  const bool native_bf16 = cpu.Has("avx512_bf16");
  peak.bf16_flops_per_second = peak.fp32_flops_per_second * (native_bf16 ? 2 : 1);
  peak.derivation = fmt::format(
      "{} cores x {:.0f} MHz ('cpu MHz' in /proc/cpuinfo, no boost) x {} FMA units x {} fp32 lanes ({}-bit, {}) x 2 "
      "FLOPs per FMA = {:.1f} GFLOP/s fp32; bf16 {}: {:.1f} GFLOP/s",
      cores, cpu.mhz, core.fma_units, fp32_lanes, core.datapath_bits, core.name, peak.fp32_flops_per_second / 1e9,
      native_bf16 ? "x 2 (AVX-512 BF16 dot products)" : "x 1 (no native bf16 arithmetic)",
      peak.bf16_flops_per_second / 1e9);
  return peak;
}

nlohmann::json TheoreticalPeakToJson(const TheoreticalPeak& peak) {
  return {{"derived", peak.derived},
          {"fp32_flops_per_second", peak.derived ? nlohmann::json(peak.fp32_flops_per_second) : nlohmann::json()},
          {"bf16_flops_per_second", peak.derived ? nlohmann::json(peak.bf16_flops_per_second) : nlohmann::json()},
          {"derivation", peak.derivation}};
}

std::string MeasuredAboveTheoreticalNote(const TheoreticalPeak& peak, double measured_fp32, double measured_bf16) {
  if (!peak.derived || peak.nominal_mhz <= 0) return "";
  double ratio = 0;
  std::string precision;
  if (peak.fp32_flops_per_second > 0 && measured_fp32 / peak.fp32_flops_per_second > ratio) {
    ratio = measured_fp32 / peak.fp32_flops_per_second;
    precision = "fp32";
  }
  if (peak.bf16_flops_per_second > 0 && measured_bf16 / peak.bf16_flops_per_second > ratio) {
    ratio = measured_bf16 / peak.bf16_flops_per_second;
    precision = "bf16";
  }
  if (!(ratio > 1)) return "";
  return fmt::format(
      "the measured {} peak is {:.2f}x this figure: the cores ran at {:.0f} MHz or more (boost above the nominal "
      "{:.0f} "
      "MHz), so on this machine the figure is not an upper bound",
      precision, ratio, peak.nominal_mhz * ratio, peak.nominal_mhz);
}

}  // namespace evalsuite
