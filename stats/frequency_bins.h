// ImageNetV2's selection-frequency bins (Recht et al. 2019): [0, .2), [.2, .4), [.4, .6), [.6, .8), [.8, 1].
// One definition for the freeze's sampling and the evaluation's accuracy by bin.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace evalsuite::stats {

constexpr std::size_t kFrequencyBins = 5;
constexpr std::array<double, kFrequencyBins + 1> kFrequencyBinEdges = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};

// The bin of a selection frequency in [0, 1] (the last bin includes 1); -1 for NaN or a value outside.
int FrequencyBin(double frequency);
// "[0.0, 0.2)", ..., "[0.8, 1.0]".
std::string FrequencyBinLabel(std::size_t bin);

}  // namespace evalsuite::stats
