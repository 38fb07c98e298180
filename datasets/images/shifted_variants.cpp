#include "datasets/images/shifted_variants.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>
#include <random>

#include "common/error.h"

namespace evalsuite::datasets {
namespace {

// SplitMix64 finalizer: decorrelates (seed, index) pairs before they seed the generator.
uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) from the top 53 bits: fully specified, unlike std::uniform_real_distribution.
double Uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0); }

double StandardNormal(std::mt19937_64& rng) {
  const double u1 = 1.0 - Uniform(rng);  // (0, 1]: log is finite
  const double u2 = Uniform(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

cv::Mat AddNoise(const cv::Mat& image, double sigma, std::mt19937_64& rng) {
  cv::Mat out(image.size(), image.type());
  const int values_per_row = image.cols * image.channels();
  for (int y = 0; y < image.rows; ++y) {
    const uint8_t* src = image.ptr<uint8_t>(y);
    uint8_t* dst = out.ptr<uint8_t>(y);
    for (int i = 0; i < values_per_row; ++i) {
      const double value = src[i] + 255.0 * sigma * StandardNormal(rng);
      dst[i] = static_cast<uint8_t>(std::clamp(std::lround(value), 0L, 255L));
    }
  }
  return out;
}

cv::Mat Blur(const cv::Mat& image, double sigma) {
  cv::Mat out;
  const int radius = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
  cv::GaussianBlur(image, out, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma, cv::BORDER_REFLECT_101);
  return out;
}

cv::Mat Rotate(const cv::Mat& image, double max_degrees, std::mt19937_64& rng) {
  const double angle = (2 * Uniform(rng) - 1) * max_degrees;
  const cv::Point2f centre((image.cols - 1) / 2.0f, (image.rows - 1) / 2.0f);
  const cv::Mat matrix = cv::getRotationMatrix2D(centre, angle, 1.0);
  cv::Mat out;
  cv::warpAffine(image, out, matrix, image.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
  return out;
}

cv::Mat ReduceContrast(const cv::Mat& image, double factor) {
  const cv::Scalar mean = cv::mean(image);
  double mean_value = 0;
  for (int c = 0; c < image.channels(); ++c) mean_value += mean[c];
  mean_value /= image.channels();
  cv::Mat out;
  // out = (x - m) * f + m, rounded and saturated by convertTo.
  image.convertTo(out, image.type(), factor, mean_value * (1 - factor));
  return out;
}

}  // namespace

std::vector<std::string> ShiftNames() { return {"noise", "blur", "rotate", "contrast"}; }

ShiftSpec DefaultShift(const std::string& name) {
  if (name == "noise") return {name, 0.15, 7001};
  if (name == "blur") return {name, 1.0, 7002};
  if (name == "rotate") return {name, 30.0, 7003};
  if (name == "contrast") return {name, 0.4, 7004};
  throw UsageError("--variants", "unknown variant \"" + name + "\" (noise, blur, rotate, contrast)");
}

std::string ShiftSpec::Describe() const {
  if (name == "noise") return fmt::format("noise: additive Gaussian, sigma {} of full scale, seed {}", strength, seed);
  if (name == "blur") return fmt::format("blur: Gaussian, sigma {} px", strength);
  if (name == "rotate") {
    return fmt::format(
        "rotate: uniform angle in [-{0}, {0}] degrees about the centre, bilinear, black border, seed {1}", strength,
        seed);
  }
  if (name == "contrast") return fmt::format("contrast: factor {} towards the image mean", strength);
  return name;
}

cv::Mat ApplyShift(const cv::Mat& image, const ShiftSpec& shift, uint64_t image_index) {
  if (image.depth() != CV_8U || (image.channels() != 1 && image.channels() != 3)) {
    throw Error(ErrorKind::kInternal, "ApplyShift", "expects an 8-bit image with 1 or 3 channels");
  }
  std::mt19937_64 rng(Mix(shift.seed ^ Mix(image_index)));
  if (shift.name == "noise") return AddNoise(image, shift.strength, rng);
  if (shift.name == "blur") return Blur(image, shift.strength);
  if (shift.name == "rotate") return Rotate(image, shift.strength, rng);
  if (shift.name == "contrast") return ReduceContrast(image, shift.strength);
  throw UsageError("--variants", "unknown variant \"" + shift.name + "\" (noise, blur, rotate, contrast)");
}

}  // namespace evalsuite::datasets
