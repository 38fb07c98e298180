// Preprocessing numbers: torchvision's resize and centre-crop geometry (rounding included), normalization,
// grayscale, padding, channel order, spec files and presets.
#include "datasets/images/preprocess.h"

#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {
using nlohmann::json;

// Column x holds the value x (mod 256) in every channel.
cv::Mat ColumnCoded(int width, int height) {
  cv::Mat image(height, width, CV_8UC3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image.at<cv::Vec3b>(y, x) = cv::Vec3b(x % 256, x % 256, x % 256);
  }
  return image;
}

TEST(Preprocess, ResizeKeepsTorchvisionSizes) {
  PreprocessSpec spec = PresetSpec("imagenet");
  spec.crop_height = spec.crop_width = 0;
  EXPECT_EQ(ResizeAndCrop(cv::Mat(375, 500, CV_8UC3, cv::Scalar::all(9)), spec).size(), cv::Size(341, 256));
  EXPECT_EQ(ResizeAndCrop(cv::Mat(500, 375, CV_8UC3, cv::Scalar::all(9)), spec).size(), cv::Size(256, 341));
  EXPECT_EQ(ResizeAndCrop(cv::Mat(225, 300, CV_8UC3, cv::Scalar::all(9)), spec).size(), cv::Size(341, 256));
  EXPECT_EQ(ResizeAndCrop(cv::Mat(683, 1024, CV_8UC3, cv::Scalar::all(9)), spec).size(), cv::Size(383, 256));
  EXPECT_EQ(ResizeAndCrop(cv::Mat(256, 256, CV_8UC3, cv::Scalar::all(9)), spec).size(), cv::Size(256, 256));
}

TEST(Preprocess, CentreCropRoundsHalfToEvenLikePython) {
  PreprocessSpec spec = PresetSpec("imagenet");
  spec.resize_shorter = 0;
  // (341 - 224) / 2 = 58.5 -> round() = 58; (343 - 224) / 2 = 59.5 -> 60; (256 - 224) / 2 = 16.
  cv::Mat cropped = ResizeAndCrop(ColumnCoded(341, 256), spec);
  EXPECT_EQ(cropped.size(), cv::Size(224, 224));
  EXPECT_EQ(cropped.at<cv::Vec3b>(0, 0)[0], 58);
  cropped = ResizeAndCrop(ColumnCoded(343, 256), spec);
  EXPECT_EQ(cropped.at<cv::Vec3b>(0, 0)[0], 60);
}

TEST(Preprocess, SmallImagesArePaddedWithZeros) {
  PreprocessSpec spec = PresetSpec("imagenet");
  spec.resize_shorter = 0;
  spec.crop_height = 3;
  spec.crop_width = 4;
  const cv::Mat cropped = ResizeAndCrop(cv::Mat(2, 2, CV_8UC3, cv::Scalar::all(200)), spec);
  ASSERT_EQ(cropped.size(), cv::Size(4, 3));
  // torchvision pads left = (4 - 2) / 2 = 1, top = (3 - 2) / 2 = 0, bottom 1.
  EXPECT_EQ(cropped.at<cv::Vec3b>(0, 0)[0], 0);
  EXPECT_EQ(cropped.at<cv::Vec3b>(0, 1)[0], 200);
  EXPECT_EQ(cropped.at<cv::Vec3b>(1, 2)[0], 200);
  EXPECT_EQ(cropped.at<cv::Vec3b>(2, 1)[0], 0);
}

TEST(Preprocess, NormalizesPlanarRgbFromEitherOrder) {
  PreprocessSpec spec = PresetSpec("imagenet");
  spec.resize_shorter = 0;
  spec.crop_height = 1;
  spec.crop_width = 2;
  cv::Mat rgb(1, 2, CV_8UC3);
  rgb.at<cv::Vec3b>(0, 0) = cv::Vec3b(255, 0, 51);
  rgb.at<cv::Vec3b>(0, 1) = cv::Vec3b(0, 255, 102);
  std::vector<float> out(spec.OutputSize());
  PreprocessInto(rgb, /*bgr=*/false, spec, out.data());
  // Planes R, G, B; (v / 255 - mean) / std.
  EXPECT_NEAR(out[0], (1.0 - 0.485) / 0.229, 1e-5);
  EXPECT_NEAR(out[1], (0.0 - 0.485) / 0.229, 1e-5);
  EXPECT_NEAR(out[2], (0.0 - 0.456) / 0.224, 1e-5);
  EXPECT_NEAR(out[3], (1.0 - 0.456) / 0.224, 1e-5);
  EXPECT_NEAR(out[4], (0.2 - 0.406) / 0.225, 1e-5);
  EXPECT_NEAR(out[5], (0.4 - 0.406) / 0.225, 1e-5);
  cv::Mat bgr;
  cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
  std::vector<float> from_bgr(spec.OutputSize());
  PreprocessInto(bgr, /*bgr=*/true, spec, from_bgr.data());
  EXPECT_EQ(out, from_bgr);
}

TEST(Preprocess, FashionMnistPresetIsGrayscaleZeroToOne) {
  const PreprocessSpec spec = PresetSpec("fashion-mnist");
  EXPECT_EQ(spec.OutputShape(), (std::vector<int64_t>{1, 28, 28}));
  cv::Mat gray(28, 28, CV_8UC1, cv::Scalar(0));
  gray.at<uchar>(3, 5) = 255;
  gray.at<uchar>(27, 27) = 51;
  cv::Mat image;
  cv::cvtColor(gray, image, cv::COLOR_GRAY2BGR);
  std::vector<float> out(spec.OutputSize());
  PreprocessInto(image, true, spec, out.data());
  EXPECT_FLOAT_EQ(out[3 * 28 + 5], 1.0f);
  EXPECT_FLOAT_EQ(out[27 * 28 + 27], 0.2f);
  EXPECT_FLOAT_EQ(out[0], 0.0f);
}

TEST(Preprocess, SpecFromJson) {
  const PreprocessSpec spec = PreprocessSpecFromJson(
      json{{"resize", 320}, {"crop", {288, 256}}, {"interpolation", "cubic"}, {"mean", 0.5}, {"std", {0.5}}}, "s.json");
  EXPECT_EQ(spec.resize_shorter, 320);
  EXPECT_EQ(spec.crop_height, 288);
  EXPECT_EQ(spec.crop_width, 256);
  EXPECT_EQ(spec.interpolation, Interpolation::kCubic);
  EXPECT_EQ(spec.mean[2], 0.5);
  EXPECT_EQ(spec.std[1], 0.5);
  EXPECT_EQ(spec.name, "s.json");
  const PreprocessSpec gray = PreprocessSpecFromJson(json{{"preset", "fashion-mnist"}, {"crop", 24}}, "g.json");
  EXPECT_EQ(gray.channels, 1);
  EXPECT_EQ(gray.resize_shorter, 28);
  EXPECT_EQ(gray.crop_width, 24);
  EXPECT_FALSE(gray.SameTransform(PresetSpec("fashion-mnist")));
  EXPECT_TRUE(PreprocessSpecFromJson(gray.ToJson(), "round-trip").SameTransform(gray));
  EXPECT_TRUE(PreprocessSpecFromJson(PresetSpec("imagenet").ToJson(), "rt").SameTransform(PresetSpec("imagenet")));
  auto where_of = [](const json& j) {
    try {
      PreprocessSpecFromJson(j, "s.json");
    } catch (const Error& e) {
      return e.where();
    }
    return std::string("no error");
  };
  EXPECT_EQ(where_of(json{{"crop", -3}}), "s.json: crop");
  EXPECT_EQ(where_of(json{{"std", {1, 0, 1}}}), "s.json: std");
  EXPECT_EQ(where_of(json{{"interpolation", "lanczos9"}}), "s.json: interpolation");
  EXPECT_EQ(where_of(json{{"resise", 256}}), "s.json: resise");
  EXPECT_EQ(where_of(json{{"preset", "cifar"}}), "s.json: preset");
  EXPECT_EQ(where_of(json{{"channels", 2}}), "s.json: channels");
}

TEST(Preprocess, ResolvesPresetsAndFiles) {
  EXPECT_EQ(ResolvePreprocessSpec("imagenet").crop_width, 224);
  EXPECT_EQ(ResolvePreprocessSpec("fashion-mnist").channels, 1);
  testing::TempDir dir;
  testing::WriteFile(dir / "spec.json", R"({"resize": 160, "crop": 128})");
  EXPECT_EQ(ResolvePreprocessSpec((dir / "spec.json").string()).crop_width, 128);
  testing::WriteFile(dir / "bad.json", "{");
  EXPECT_THROW(ResolvePreprocessSpec((dir / "bad.json").string()), Error);
  try {
    ResolvePreprocessSpec("imagenet-v2");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
}

// torchvision 0.14 (PIL 9.4): Resize(256), CenterCrop(224), ToTensor, Normalize of the 500x375 image below, at
// positions (c, 7 + 30 i, 11 + 29 j) for c < 3, i < 7, j < 7 (computed once with bench/torchvision_peer.py's
// transforms). The image is deliberately harsh (wrapping ramps, an 8-pixel checkerboard), the worst case for
// resampling differences. The `imagenet` preset resamples as PIL does (pil_resample.h), so the values agree to
// float rounding; INTER_AREA, its previous kernel, was 0.0138 off on average (0.8 grey levels).
const float kTorchvisionSamples[147] = {
    -0.13143, 2.06054,  -0.14856, 2.04341,  -0.16568, 2.02629,  -0.16568, 1.37555,  -0.81642, 1.35842,  -0.83355,
    1.34130,  -0.85067, 1.34130,  -1.50141, 0.69056,  -1.51854, 0.67343,  -1.53566, 0.65631,  -1.53566, 0.00557,
    2.11191,  -0.01156, 2.09479,  -0.02868, 2.16328,  -0.02868, 1.49542,  -0.69655, 1.47829,  -0.71367, 1.46117,
    -0.73080, 1.46117,  -1.38154, 0.81043,  -1.39866, 0.79330,  -1.41579, 0.77618,  -1.41579, 0.12544,  -1.62129,
    0.10831,  -1.68979, 0.09119,  -1.29592, 0.09119,  -1.68557, -0.88025, 1.81583,  -1.68557, 0.08263,  1.81583,
    -1.68557, 1.81583,  1.01050,  -1.68557, 1.81583,  0.04762,  -1.68557, 1.81583,  1.81583,  1.01050,  -1.68557,
    1.81583,  0.04762,  -1.68557, 1.81583,  -1.68557, -0.88025, 1.81583,  -1.68557, 0.08263,  1.81583,  -1.68557,
    -1.68557, -0.88025, 1.81583,  -1.68557, 0.08263,  1.81583,  -1.68557, 1.81583,  1.01050,  -1.68557, 1.81583,
    0.04762,  -1.68557, 1.81583,  1.81583,  1.01050,  -1.68557, 1.81583,  0.04762,  -1.68557, 1.81583,  -0.61926,
    -0.11381, 0.39163,  0.89708,  1.38510,  1.90797,  2.41342,  0.94937,  2.09970,  -1.21185, -0.06152, 1.08880,
    2.23913,  -1.05499, 2.50057,  -0.16610, 1.64654,  -1.02013, 0.79251,  1.50710,  -0.04410, -0.41011, 2.04741,
    0.02562,  2.41342,  0.49621,  -1.50815, 0.94937,  1.14109,  -0.21839, -1.56044, 1.54196,  0.18248,  -1.17699,
    1.94283,  -0.68898, 1.99512,  1.28052,  0.58336,  -0.13124, -0.81098, -1.50815, -0.23582, -0.25325, -0.32296,
    -0.37525, -0.41011, -0.46240, -0.53211,
};
const double kTorchvisionChannelMeans[3] = {0.070172, 0.064831, 0.432492};

TEST(Preprocess, ImagenetPresetStaysCloseToTorchvision) {
  cv::Mat bgr(375, 500, CV_8UC3);
  for (int y = 0; y < 375; ++y) {
    for (int x = 0; x < 500; ++x) {
      const int r = (3 * x + 2 * y) % 256, g = ((x / 8 + y / 8) % 2) * 200 + 20, b = (x * y / 50) % 256;
      bgr.at<cv::Vec3b>(y, x) = cv::Vec3b(b, g, r);
    }
  }
  const PreprocessSpec spec = PresetSpec("imagenet");
  std::vector<float> out(spec.OutputSize());
  PreprocessInto(bgr, /*bgr=*/true, spec, out.data());
  double sum = 0;
  int k = 0;
  for (int c = 0; c < 3; ++c) {
    double mean = 0;
    for (int p = 0; p < 224 * 224; ++p) mean += out[c * 224 * 224 + p];
    EXPECT_NEAR(mean / (224 * 224), kTorchvisionChannelMeans[c], 1e-4) << "channel " << c;
    for (int i = 0; i < 7; ++i) {
      for (int j = 0; j < 7; ++j)
        sum += std::abs(out[(c * 224 + 7 + 30 * i) * 224 + 11 + 29 * j] - kTorchvisionSamples[k++]);
    }
  }
  const double mean_abs = sum / 147;
  EXPECT_LT(mean_abs, 1e-4);
}

}  // namespace
}  // namespace evalsuite::datasets
