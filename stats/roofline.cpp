#include "stats/roofline.h"

#include <algorithm>
#include <cstdio>

namespace evalsuite::stats {

double Ceilings::Attainable(double intensity) const { return std::min(peak_flops, bandwidth_bytes * intensity); }

double ModelFlopsUtilization(double achieved_flops, double peak_flops) {
  return peak_flops > 0 ? achieved_flops / peak_flops : 0.0;
}

std::string BottleneckName(Bottleneck b) {
  switch (b) {
    case Bottleneck::kCompute:
      return "compute-bound";
    case Bottleneck::kMemory:
      return "memory-bound";
    case Bottleneck::kOverhead:
      return "overhead-bound";
    case Bottleneck::kUnknown:
      break;
  }
  return "unknown";
}

BottleneckVerdict ClassifyBottleneck(double intensity, double achieved_flops, const Ceilings& c, double near_roof) {
  BottleneckVerdict v;
  if (!(c.peak_flops > 0) || !(c.bandwidth_bytes > 0) || !(intensity > 0) || !(achieved_flops > 0)) {
    v.evidence = "no ceilings or no throughput measured";
    return v;
  }
  v.attainable_flops = c.Attainable(intensity);
  v.fraction_of_attainable = achieved_flops / v.attainable_flops;
  const double ridge = c.RidgeIntensity();
  const bool left_of_ridge = intensity < ridge;
  char text[400];
  std::snprintf(text, sizeof text,
                "intensity %.1f FLOP/byte is %s the ridge (%.1f), so the roofline allows %.2f GFLOP/s; it achieves "
                "%.2f GFLOP/s, %.0f%% of that",
                intensity, left_of_ridge ? "left of" : "right of", ridge, v.attainable_flops / 1e9,
                achieved_flops / 1e9, 100 * v.fraction_of_attainable);
  v.evidence = text;
  if (v.fraction_of_attainable < near_roof) {
    v.bound = Bottleneck::kOverhead;
  } else {
    v.bound = left_of_ridge ? Bottleneck::kMemory : Bottleneck::kCompute;
  }
  return v;
}

}  // namespace evalsuite::stats
