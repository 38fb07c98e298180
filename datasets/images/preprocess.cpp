#include "datasets/images/preprocess.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"
#include "datasets/images/pil_resample.h"

namespace evalsuite::datasets {
namespace {
using nlohmann::json;

int CvInterpolation(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kBilinear:
    case Interpolation::kBicubic:
      break;  // not OpenCV's (see ResizeAndCrop)
    case Interpolation::kArea:
      return cv::INTER_AREA;
    case Interpolation::kLinear:
      return cv::INTER_LINEAR;
    case Interpolation::kCubic:
      return cv::INTER_CUBIC;
    case Interpolation::kNearest:
      return cv::INTER_NEAREST;
  }
  return cv::INTER_AREA;
}

Interpolation ParseInterpolation(const std::string& name, const std::string& where) {
  if (name == "bilinear") return Interpolation::kBilinear;
  if (name == "bicubic") return Interpolation::kBicubic;
  if (name == "area") return Interpolation::kArea;
  if (name == "linear") return Interpolation::kLinear;
  if (name == "cubic") return Interpolation::kCubic;
  if (name == "nearest") return Interpolation::kNearest;
  throw InputError(where + ": interpolation",
                   "unknown \"" + name + "\" (bilinear, bicubic: PIL's; area, linear, cubic, nearest: OpenCV's)");
}

std::array<double, 3> ReadTriple(const json& value, const std::string& where) {
  std::array<double, 3> triple{};
  if (value.is_number()) {
    triple.fill(value.get<double>());
    return triple;
  }
  if (!value.is_array() || (value.size() != 3 && value.size() != 1)) {
    throw InputError(where, "expected a number or an array of 1 or 3 numbers");
  }
  for (size_t c = 0; c < 3; ++c) {
    const json& v = value[value.size() == 1 ? 0 : c];
    if (!v.is_number()) throw InputError(where, "expected numbers");
    triple[c] = v.get<double>();
  }
  return triple;
}

int ReadPositive(const json& value, const std::string& where, bool allow_zero) {
  if (!value.is_number_integer() || value.get<int64_t>() < (allow_zero ? 0 : 1) || value.get<int64_t>() > 16384) {
    throw InputError(where, allow_zero ? "expected an integer in [0, 16384]" : "expected an integer in [1, 16384]");
  }
  return value.get<int>();
}

// torchvision's Resize(int): the shorter side becomes `size`, the longer side int(size * long / short).
cv::Size ResizedSize(int width, int height, int size) {
  if (width <= height) {
    return {size, static_cast<int>(static_cast<int64_t>(size) * height / width)};
  }
  return {static_cast<int>(static_cast<int64_t>(size) * width / height), size};
}

}  // namespace

const char* InterpolationName(Interpolation interpolation) {
  switch (interpolation) {
    case Interpolation::kBilinear:
      return "bilinear";
    case Interpolation::kBicubic:
      return "bicubic";
    case Interpolation::kArea:
      return "area";
    case Interpolation::kLinear:
      return "linear";
    case Interpolation::kCubic:
      return "cubic";
    case Interpolation::kNearest:
      return "nearest";
  }
  return "area";
}

json PreprocessSpec::ToJson() const {
  return {{"name", name},
          {"channels", channels},
          {"resize", resize_shorter},
          {"crop", {crop_height, crop_width}},
          {"interpolation", InterpolationName(interpolation)},
          {"scale", scale},
          {"mean", channels == 1 ? json::array({mean[0]}) : json(mean)},
          {"std", channels == 1 ? json::array({std[0]}) : json(std)}};
}

bool PreprocessSpec::SameTransform(const PreprocessSpec& other) const {
  const int used = channels == 1 ? 1 : 3;
  for (int c = 0; c < used; ++c) {
    if (mean[c] != other.mean[c] || std[c] != other.std[c]) return false;
  }
  return channels == other.channels && resize_shorter == other.resize_shorter && crop_height == other.crop_height &&
         crop_width == other.crop_width && interpolation == other.interpolation && scale == other.scale;
}

std::vector<std::string> PresetNames() { return {"imagenet", "imagenet-bicubic", "fashion-mnist"}; }

PreprocessSpec PresetSpec(const std::string& name) {
  PreprocessSpec spec;
  spec.name = name;
  if (name == "imagenet") return spec;
  if (name == "imagenet-bicubic") {
    spec.interpolation = Interpolation::kBicubic;
    return spec;
  }
  if (name == "fashion-mnist") {
    spec.channels = 1;
    spec.resize_shorter = 28;
    spec.crop_height = spec.crop_width = 28;
    spec.mean = {0, 0, 0};
    spec.std = {1, 1, 1};
    return spec;
  }
  throw UsageError("--preprocess",
                   "unknown preset \"" + name + "\" (imagenet, imagenet-bicubic, fashion-mnist, or a JSON spec file)");
}

PreprocessSpec PreprocessSpecFromJson(const json& root, const std::string& where) {
  if (!root.is_object()) throw InputError(where, "a preprocessing spec is a JSON object");
  // "size" and "grayscale" are the spelling of evalsuite train's model.json; "polarity", "note" and
  // "description" are documentation only.
  static const std::vector<std::string> kKeys = {"preset", "name",      "channels",      "resize",     "crop",
                                                 "size",   "grayscale", "interpolation", "scale",      "mean",
                                                 "std",    "polarity",  "note",          "description"};
  for (const auto& [key, value] : root.items()) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      throw InputError(where + ": " + key,
                       "unknown key (preset, channels, resize, crop, interpolation, scale, mean, std)");
    }
  }
  PreprocessSpec spec;
  if (root.contains("preset")) {
    if (!root["preset"].is_string()) throw InputError(where + ": preset", "expected a preset name");
    try {
      spec = PresetSpec(root["preset"].get<std::string>());
    } catch (const Error& e) {
      throw InputError(where + ": preset", e.message());
    }
  }
  spec.name = where;
  if (root.contains("channels")) {
    spec.channels = ReadPositive(root["channels"], where + ": channels", false);
    if (spec.channels != 1 && spec.channels != 3) throw InputError(where + ": channels", "expected 1 or 3");
  }
  if (root.contains("grayscale")) {
    if (!root["grayscale"].is_boolean()) throw InputError(where + ": grayscale", "expected true or false");
    spec.channels = root["grayscale"].get<bool>() ? 1 : 3;
  }
  if (root.contains("size")) {  // square inputs: resize the shorter side to size, crop size x size
    spec.resize_shorter = ReadPositive(root["size"], where + ": size", false);
    spec.crop_height = spec.crop_width = spec.resize_shorter;
  }
  if (root.contains("resize")) spec.resize_shorter = ReadPositive(root["resize"], where + ": resize", true);
  if (root.contains("crop")) {
    const json& crop = root["crop"];
    if (crop.is_array() && crop.size() == 2) {
      spec.crop_height = ReadPositive(crop[0], where + ": crop", false);
      spec.crop_width = ReadPositive(crop[1], where + ": crop", false);
    } else {
      spec.crop_height = spec.crop_width = ReadPositive(crop, where + ": crop", false);
    }
  }
  if (root.contains("interpolation")) {
    if (!root["interpolation"].is_string()) throw InputError(where + ": interpolation", "expected a name");
    spec.interpolation = ParseInterpolation(root["interpolation"].get<std::string>(), where);
  }
  if (root.contains("scale")) {
    if (!root["scale"].is_number() || !(root["scale"].get<double>() > 0)) {
      throw InputError(where + ": scale", "expected a positive number");
    }
    spec.scale = root["scale"].get<double>();
  }
  if (root.contains("mean")) spec.mean = ReadTriple(root["mean"], where + ": mean");
  if (root.contains("std")) {
    spec.std = ReadTriple(root["std"], where + ": std");
    for (double s : spec.std) {
      if (!(s > 0)) throw InputError(where + ": std", "every std must be positive");
    }
  }
  return spec;
}

PreprocessSpec ResolvePreprocessSpec(const std::string& preset_or_file) {
  for (const std::string& preset : PresetNames()) {
    if (preset_or_file == preset) return PresetSpec(preset);
  }
  std::ifstream in(preset_or_file, std::ios::binary);
  if (!in) {
    throw UsageError("--preprocess",
                     "\"" + preset_or_file +
                         "\" is neither a preset (imagenet, imagenet-bicubic, fashion-mnist) nor a readable spec file");
  }
  std::stringstream text;
  text << in.rdbuf();
  const json root = ParseUserJson(text.str(), preset_or_file);
  return PreprocessSpecFromJson(root, preset_or_file);
}

cv::Mat ResizeAndCrop(const cv::Mat& image, const PreprocessSpec& spec) {
  cv::Mat resized = image;
  if (spec.resize_shorter > 0) {
    const cv::Size size = ResizedSize(image.cols, image.rows, spec.resize_shorter);
    const bool pil = spec.interpolation == Interpolation::kBilinear || spec.interpolation == Interpolation::kBicubic;
    if (size != image.size() && pil) {
      const PilFilter filter =
          spec.interpolation == Interpolation::kBicubic ? PilFilter::kBicubic : PilFilter::kBilinear;
      if (spec.crop_height > 0 && spec.crop_width > 0 && size.width >= spec.crop_width &&
          size.height >= spec.crop_height) {
        // Only the crop is resampled (the same pixels as cropping the full resize, for a third less work).
        const int top = static_cast<int>(std::lrint((size.height - spec.crop_height) / 2.0));
        const int left = static_cast<int>(std::lrint((size.width - spec.crop_width) / 2.0));
        return PilResize(image, size, filter, cv::Rect(left, top, spec.crop_width, spec.crop_height));
      }
      resized = PilResize(image, size, filter);
    } else if (size != image.size()) {
      cv::resize(image, resized, size, 0, 0, CvInterpolation(spec.interpolation));
    }
  }
  if (spec.crop_height <= 0 || spec.crop_width <= 0) return resized;
  // torchvision's CenterCrop pads with zeros when the image is smaller than the crop...
  if (resized.cols < spec.crop_width || resized.rows < spec.crop_height) {
    const int pad_w = std::max(0, spec.crop_width - resized.cols);
    const int pad_h = std::max(0, spec.crop_height - resized.rows);
    cv::Mat padded;
    cv::copyMakeBorder(resized, padded, pad_h / 2, (pad_h + 1) / 2, pad_w / 2, (pad_w + 1) / 2, cv::BORDER_CONSTANT,
                       cv::Scalar::all(0));
    resized = padded;
  }
  // ...and rounds the offset with Python's round(), half to even, as lrint does in the default FP mode.
  const int top = static_cast<int>(std::lrint((resized.rows - spec.crop_height) / 2.0));
  const int left = static_cast<int>(std::lrint((resized.cols - spec.crop_width) / 2.0));
  return resized(cv::Rect(left, top, spec.crop_width, spec.crop_height));
}

void PreprocessInto(const cv::Mat& image, bool bgr, const PreprocessSpec& spec, float* out) {
  if (image.type() != CV_8UC3) throw Error(ErrorKind::kInternal, "PreprocessInto", "expects an 8-bit 3-channel image");
  cv::Mat source = image;
  if (spec.channels == 1) {
    cv::Mat gray;
    cv::cvtColor(image, gray, bgr ? cv::COLOR_BGR2GRAY : cv::COLOR_RGB2GRAY);
    source = gray;  // resize the single plane: a third of the work
  }
  const cv::Mat cropped = ResizeAndCrop(source, spec);
  const int height = spec.crop_height > 0 ? spec.crop_height : cropped.rows;
  const int width = spec.crop_width > 0 ? spec.crop_width : cropped.cols;
  if (cropped.rows != height || cropped.cols != width) {
    throw Error(ErrorKind::kInternal, "PreprocessInto", "crop size mismatch");
  }
  const int64_t plane = static_cast<int64_t>(height) * width;
  if (spec.channels == 1) {
    const float a = static_cast<float>(spec.scale / spec.std[0]);
    const float b = static_cast<float>(-spec.mean[0] / spec.std[0]);
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = cropped.ptr<uint8_t>(y);
      float* dst = out + static_cast<int64_t>(y) * width;
      for (int x = 0; x < width; ++x) dst[x] = row[x] * a + b;
    }
    return;
  }
  // out[c] = (pixel[c] * scale - mean[c]) / std[c], with the source channel index reversed for BGR input.
  float a[3], b[3];
  for (int c = 0; c < 3; ++c) {
    a[c] = static_cast<float>(spec.scale / spec.std[c]);
    b[c] = static_cast<float>(-spec.mean[c] / spec.std[c]);
  }
  const int src_index[3] = {bgr ? 2 : 0, 1, bgr ? 0 : 2};
  float* planes[3] = {out, out + plane, out + 2 * plane};
  for (int y = 0; y < height; ++y) {
    const uint8_t* row = cropped.ptr<uint8_t>(y);
    const int64_t offset = static_cast<int64_t>(y) * width;
    for (int c = 0; c < 3; ++c) {
      float* dst = planes[c] + offset;
      const uint8_t* src = row + src_index[c];
      const float ac = a[c], bc = b[c];
      for (int x = 0; x < width; ++x) dst[x] = src[3 * x] * ac + bc;
    }
  }
}

}  // namespace evalsuite::datasets
