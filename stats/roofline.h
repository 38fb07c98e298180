// The roofline model (Williams, Waterman and Patterson, CACM 2009) and model FLOPs utilization (PaLM, Chowdhery
// et al. 2022, appendix B: the model's FLOPs per second of training over the hardware's peak): attainable FLOP/s
// at an operational intensity, and which bound an observed point sits against, with the evidence in words.
#pragma once

#include <string>

namespace evalsuite::stats {

struct Ceilings {
  double peak_flops = 0;       // FLOP/s for the run's precision
  double bandwidth_bytes = 0;  // bytes/s
  double RidgeIntensity() const { return bandwidth_bytes > 0 ? peak_flops / bandwidth_bytes : 0; }
  // min(peak, bandwidth x intensity)
  double Attainable(double intensity) const;
};

// PaLM's MFU: achieved model FLOP/s over peak FLOP/s; 0 when the peak is unknown.
double ModelFlopsUtilization(double achieved_flops, double peak_flops);

enum class Bottleneck { kCompute, kMemory, kOverhead, kUnknown };
std::string BottleneckName(Bottleneck b);  // "compute-bound", "memory-bound", "overhead-bound", "unknown"

struct BottleneckVerdict {
  Bottleneck bound = Bottleneck::kUnknown;
  double attainable_flops = 0;
  double fraction_of_attainable = 0;  // achieved / attainable
  std::string evidence;               // one sentence with the numbers
};

// A point reaching at least `near_roof` of what the roofline allows at its intensity is bound by the roof it is
// under: memory left of the ridge, compute right of it. A point further below is overhead-bound: framework
// dispatch, small kernels, data handling or synchronization cost more than the arithmetic or the traffic, as the
// DAWNBench analysis found for its entries.
BottleneckVerdict ClassifyBottleneck(double intensity, double achieved_flops, const Ceilings& ceilings,
                                     double near_roof = 0.5);

}  // namespace evalsuite::stats
