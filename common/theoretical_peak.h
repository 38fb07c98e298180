// The CPU's theoretical peak FLOP/s from what /proc/cpuinfo says: cores x frequency x FMA units x vector lanes x 2
// (a fused multiply-add is 2 FLOPs), per precision. The FMA units and datapath width are not in /proc/cpuinfo;
// they come from a small table of microarchitectures (AMD family/model, Intel by ISA) and the derivation says
// which row it used, so a reader can check it. Unknown CPUs get no figure, with the reason.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/cpu_features.h"

namespace evalsuite {

struct TheoreticalPeak {
  bool derived = false;
  double fp32_flops_per_second = 0;  // all `cores`
  double bf16_flops_per_second = 0;
  std::string derivation;  // the formula with its numbers, or why there is none
  double nominal_mhz = 0;  // the clock the figure assumes ('cpu MHz')
};

TheoreticalPeak DeriveTheoreticalPeak(const CpuFacts& cpu, int cores);
nlohmann::json TheoreticalPeakToJson(const TheoreticalPeak& peak);

// 'cpu MHz' is the nominal clock, and cores that boost above it beat the figure: then one sentence saying so, with
// the clock the measured peak implies (nominal x measured / theoretical, the larger over fp32 and bf16), so the
// reader does not take the figure for an upper bound; "" when no measured peak exceeds it.
std::string MeasuredAboveTheoreticalNote(const TheoreticalPeak& peak, double measured_fp32, double measured_bf16);

}  // namespace evalsuite
