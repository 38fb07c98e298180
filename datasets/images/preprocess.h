// Model input preprocessing in torchvision's order: resize the shorter side, centre-crop, scale to [0, 1],
// normalize by mean and std, write planar (CHW) floats. A spec is a named preset or a small JSON file; the
// `imagenet` preset is Resize(256) + CenterCrop(224) + ToTensor + Normalize with PIL's antialiased bilinear
// filter (pil_resample.h), as torchvision computes it on PIL images. Its distance to torchvision's own output
// is asserted by tests/datasets/torchvision_fidelity_test.cpp and measured on a model by
// bench/preprocess_fidelity_bench.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace evalsuite::datasets {

// How the shorter side is resized. kBilinear and kBicubic are PIL's antialiased filters ("bilinear" and
// "bicubic": what torchvision's Resize does to PIL images, and timm's bicubic presets); the others are OpenCV's
// kernels, kept as options ("area", "linear", "cubic", "nearest"), which do not widen when shrinking.
enum class Interpolation { kBilinear, kBicubic, kArea, kLinear, kCubic, kNearest };

const char* InterpolationName(Interpolation interpolation);

struct PreprocessSpec {
  std::string name = "imagenet";  // preset name, or the spec file it came from
  int channels = 3;               // 3: RGB; 1: grayscale (ITU-R 601 luma, as PIL's convert("L"))
  int resize_shorter = 256;       // shorter side after resizing, longer side scaled and truncated; 0: no resize
  int crop_height = 224;          // centre crop (torchvision's rounding; zero-padded if the image is smaller);
  int crop_width = 224;           // 0: no crop, which needs resize_shorter 0 and equal-sized inputs
  Interpolation interpolation = Interpolation::kBilinear;
  double scale = 1.0 / 255.0;                          // pixel value multiplier before normalization
  std::array<double, 3> mean = {0.485, 0.456, 0.406};  // per channel (only [0] used when channels == 1)
  std::array<double, 3> std = {0.229, 0.224, 0.225};

  // Floats per image: channels * crop_height * crop_width.
  int64_t OutputSize() const { return static_cast<int64_t>(channels) * crop_height * crop_width; }
  std::vector<int64_t> OutputShape() const { return {channels, crop_height, crop_width}; }
  // The effective spec as JSON (the same keys a spec file uses), for reports and logs.
  nlohmann::json ToJson() const;
  // Two specs producing the same tensor compare equal (the name is ignored).
  bool SameTransform(const PreprocessSpec& other) const;
};

// "imagenet": RGB, shorter side 256 (PIL bilinear), centre crop 224, ImageNet mean/std (torchvision's recipe).
// "imagenet-bicubic": the same with PIL bicubic (timm's default for most ImageNet models: crop_pct 0.875).
// "fashion-mnist": grayscale, 28x28, scaled to [0, 1], no normalization (evalsuite's Fashion-MNIST models
// normalize inside forward()).
PreprocessSpec PresetSpec(const std::string& name);
std::vector<std::string> PresetNames();

// A spec file: {"channels": 3, "resize": 256, "crop": 224 | [h, w], "interpolation": "bilinear"|"bicubic" (PIL)
// |"area"|"linear"|"cubic"|"nearest" (OpenCV), "scale": 0.00392156862745098, "mean": [..], "std": [..], "preset":
// "imagenet"} where every key is optional and defaults to the preset named by "preset" (imagenet when absent). Also
// read: "size": N (resize N, crop N x N) and "grayscale": true (channels 1), as `evalsuite train` writes them in
// model.json. Throws InputError naming `where` and the key at fault (unknown keys included).
PreprocessSpec PreprocessSpecFromJson(const nlohmann::json& json, const std::string& where);
// A preset name or a path to a spec file.
PreprocessSpec ResolvePreprocessSpec(const std::string& preset_or_file);

// Resize + crop of an 8-bit image (1 or 3 channels), still 8-bit (for tests, and for callers that want the pixels).
cv::Mat ResizeAndCrop(const cv::Mat& image, const PreprocessSpec& spec);

// Writes spec.OutputSize() floats (CHW, RGB order) to `out`. `image` is CV_8UC3 in RGB order, or BGR when
// `bgr` is true (the channel swap is folded into the final pass).
void PreprocessInto(const cv::Mat& image, bool bgr, const PreprocessSpec& spec, float* out);

}  // namespace evalsuite::datasets
