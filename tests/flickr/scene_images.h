// Test images shared by the near-duplicate tests: a photo-like scene drawn from a seed, and saving one as JPEG.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>

#include "tests/flickr/fake_flickr.h"

namespace evalsuite::datasets {

// A photo-like image: smooth gradients and shapes, so that resizing keeps its structure.
inline cv::Mat PhotoLikeScene(uint64_t seed) {
  const std::string jpeg = flickr::testing::MakeJpeg(seed, 320, 240, 95);
  cv::Mat image =
      cv::imdecode(cv::Mat(1, static_cast<int>(jpeg.size()), CV_8U, const_cast<char*>(jpeg.data())), cv::IMREAD_COLOR);
  cv::GaussianBlur(image, image, cv::Size(9, 9), 3);
  return image;
}

inline void SaveJpeg(const std::filesystem::path& file, const cv::Mat& image, int quality = 90) {
  std::filesystem::create_directories(file.parent_path());
  ASSERT_TRUE(cv::imwrite(file.string(), image, {cv::IMWRITE_JPEG_QUALITY, quality}));
}

}  // namespace evalsuite::datasets
