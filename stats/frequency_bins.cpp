#include "stats/frequency_bins.h"

#include <cstdio>

namespace evalsuite::stats {

int FrequencyBin(double frequency) {
  if (!(frequency >= 0 && frequency <= 1)) return -1;
  for (std::size_t b = 1; b < kFrequencyBins; ++b) {
    if (frequency < kFrequencyBinEdges[b]) return static_cast<int>(b - 1);
  }
  return static_cast<int>(kFrequencyBins - 1);
}

std::string FrequencyBinLabel(std::size_t bin) {
  char text[32];
  std::snprintf(text, sizeof(text), "[%.1f, %.1f%c", kFrequencyBinEdges[bin], kFrequencyBinEdges[bin + 1],
                bin + 1 == kFrequencyBins ? ']' : ')');
  return text;
}

}  // namespace evalsuite::stats
