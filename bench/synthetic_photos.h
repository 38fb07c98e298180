// Photo-like test images for the benchmarks (no image data may be downloaded): a smooth two-colour
// background with low-frequency variation, soft-edged shapes, and fine texture, encoded as JPEG. Enough
// structure at every scale that resizing kernels differ as they do on photographs. Deterministic per seed.
#pragma once

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

namespace evalsuite::bench {

inline cv::Mat SyntheticPhoto(int width, int height, uint64_t seed) {
  cv::RNG rng(seed * 7919 + 17);
  auto colour = [&] { return cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)); };
  // Background: a bilinear blend of four corner colours plus low-frequency blotches.
  cv::Mat corners(2, 2, CV_8UC3);
  for (int i = 0; i < 4; ++i) {
    const cv::Scalar c = colour();
    corners.at<cv::Vec3b>(i / 2, i % 2) = cv::Vec3b(c[0], c[1], c[2]);
  }
  cv::Mat image;
  cv::resize(corners, image, cv::Size(width, height), 0, 0, cv::INTER_LINEAR);
  cv::Mat blotches(6, 8, CV_8UC3);
  rng.fill(blotches, cv::RNG::UNIFORM, 0, 60);
  cv::Mat blotches_big;
  cv::resize(blotches, blotches_big, image.size(), 0, 0, cv::INTER_CUBIC);
  cv::add(image, blotches_big, image);
  // Shapes with soft edges.
  cv::Mat shapes = image.clone();
  const int count = rng.uniform(4, 10);
  for (int i = 0; i < count; ++i) {
    const cv::Point centre(rng.uniform(0, width), rng.uniform(0, height));
    const cv::Size axes(rng.uniform(width / 20, width / 4), rng.uniform(height / 20, height / 4));
    if (rng.uniform(0, 2) == 0) {
      cv::ellipse(shapes, centre, axes, rng.uniform(0, 180), 0, 360, colour(), cv::FILLED, cv::LINE_AA);
    } else {
      cv::rectangle(shapes, cv::Rect(centre, axes), colour(), cv::FILLED, cv::LINE_AA);
    }
  }
  cv::GaussianBlur(shapes, image, cv::Size(0, 0), 1.2);
  // Texture: stripes of a few periods and per-pixel grain, as foliage, fabric and sensor noise have.
  cv::Mat texture(image.size(), CV_16SC3);
  rng.fill(texture, cv::RNG::NORMAL, 0, 9);
  const double period = rng.uniform(2.5, 9.0);
  for (int y = 0; y < height; ++y) {
    for (int x = width / 2; x < width; ++x) {
      const short s = static_cast<short>(18 * std::sin((x + 0.5 * y) * 2 * CV_PI / period));
      texture.at<cv::Vec3s>(y, x) += cv::Vec3s(s, s, s);
    }
  }
  cv::Mat image16;
  image.convertTo(image16, CV_16SC3);
  cv::add(image16, texture, image16);
  image16.convertTo(image, CV_8UC3);
  return image;
}

// Writes `count` JPEGs named 0000.jpg... to `dir`, sizes cycling through `sizes`; returns the paths.
inline std::vector<std::filesystem::path> WriteSyntheticPhotos(const std::filesystem::path& dir, int count,
                                                               const std::vector<cv::Size>& sizes, int quality = 90) {
  std::filesystem::create_directories(dir);
  std::vector<std::filesystem::path> files;
  for (int i = 0; i < count; ++i) {
    const cv::Size size = sizes[i % sizes.size()];
    char name[32];
    std::snprintf(name, sizeof(name), "%04d.jpg", i);
    files.push_back(dir / name);
    cv::imwrite(files.back().string(), SyntheticPhoto(size.width, size.height, i), {cv::IMWRITE_JPEG_QUALITY, quality});
  }
  return files;
}

}  // namespace evalsuite::bench
