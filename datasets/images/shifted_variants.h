// Shifted variants of an image set, in the spirit of MNIST-C (Mu & Gilmer 2019) and ImageNet-C: Gaussian
// noise, Gaussian blur, rotation and reduced contrast at one documented strength each. Deterministic: the
// same variant, seed and image index give the same bytes on every machine (std::mt19937_64 and a
// hand-written Box-Muller, not std::normal_distribution, whose output the C++ standard leaves open).
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace evalsuite::datasets {

struct ShiftSpec {
  std::string name;     // "noise", "blur", "rotate", "contrast"
  double strength = 0;  // noise: sigma on the [0, 1] scale; blur: sigma in pixels; rotate: maximum |angle| in
                        // degrees (uniform in [-s, s]); contrast: factor towards the image mean (1 = unchanged)
  uint64_t seed = 0;    // for the random ones (noise, rotate); recorded for all
  std::string Describe() const;  // "noise: additive Gaussian, sigma 0.15 of full scale, seed 7001"
};

// The defaults, chosen to cost a Fashion-MNIST CNN accuracy without destroying the class:
//   noise    sigma 0.15 (38 of 255 grey levels), seed 7001
//   blur     Gaussian, sigma 1.0 px (kernel 7x7 at 28x28)
//   rotate   uniform in [-30, 30] degrees about the centre, bilinear, black border, seed 7003
//   contrast factor 0.4 towards the per-image mean (ImageNet-C's contrast at severity 2)
// Throws UsageError naming the valid names for an unknown one.
ShiftSpec DefaultShift(const std::string& name);
std::vector<std::string> ShiftNames();

// Applies the shift to an 8-bit image (1 or 3 channels); `image_index` keys the per-image randomness, so any
// subset of a set can be regenerated alone.
cv::Mat ApplyShift(const cv::Mat& image, const ShiftSpec& shift, uint64_t image_index);

}  // namespace evalsuite::datasets
