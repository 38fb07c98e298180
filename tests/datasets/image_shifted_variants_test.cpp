// Shifted variants are deterministic (same seed and index, same bytes, pinned by a checksum) and do what
// their names say at their documented strengths.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.h"
#include "datasets/images/shifted_variants.h"

namespace evalsuite::datasets {
namespace {

cv::Mat Garment() {
  cv::Mat image(28, 28, CV_8UC1, cv::Scalar(0));
  cv::rectangle(image, cv::Rect(7, 4, 14, 20), cv::Scalar(200), cv::FILLED);
  cv::rectangle(image, cv::Rect(3, 4, 22, 6), cv::Scalar(160), cv::FILLED);
  return image;
}

bool Same(const cv::Mat& a, const cv::Mat& b) { return a.size() == b.size() && cv::norm(a, b, cv::NORM_INF) == 0; }

TEST(ShiftedVariants, DeterministicPerSeedAndIndex) {
  const cv::Mat image = Garment();
  for (const std::string& name : ShiftNames()) {
    const ShiftSpec shift = DefaultShift(name);
    EXPECT_TRUE(Same(ApplyShift(image, shift, 17), ApplyShift(image, shift, 17))) << name;
    EXPECT_EQ(ApplyShift(image, shift, 17).type(), image.type());
    EXPECT_FALSE(Same(ApplyShift(image, shift, 17), image)) << name << " changed nothing";
  }
  const ShiftSpec noise = DefaultShift("noise");
  EXPECT_FALSE(Same(ApplyShift(image, noise, 1), ApplyShift(image, noise, 2)));
  ShiftSpec reseeded = noise;
  reseeded.seed = 1;
  EXPECT_FALSE(Same(ApplyShift(image, noise, 1), ApplyShift(image, reseeded, 1)));
  // Pinned: mt19937_64 and the hand-written Box-Muller are fully specified, so these sums hold on every
  // platform. A change here changes every published noise/rotate variant.
  EXPECT_EQ(cv::sum(ApplyShift(image, noise, 0))[0], 66871);
  EXPECT_EQ(cv::sum(ApplyShift(image, DefaultShift("rotate"), 0))[0], 60340);
}

TEST(ShiftedVariants, NoiseHasItsDocumentedStrength) {
  const cv::Mat flat(200, 200, CV_8UC1, cv::Scalar(128));
  const cv::Mat noisy = ApplyShift(flat, DefaultShift("noise"), 3);
  cv::Scalar mean, stddev;
  cv::meanStdDev(noisy, mean, stddev);
  EXPECT_NEAR(mean[0], 128, 1.0);
  EXPECT_NEAR(stddev[0], 0.15 * 255, 1.0);  // clipping is rare at 128 +- 3 sigma
}

TEST(ShiftedVariants, BlurContrastRotate) {
  const cv::Mat image = Garment();
  cv::Scalar mean, before, after;
  cv::meanStdDev(image, mean, before);
  cv::meanStdDev(ApplyShift(image, DefaultShift("contrast"), 0), mean, after);
  EXPECT_NEAR(after[0], 0.4 * before[0], 1.0);
  // Blur and contrast do not depend on the index.
  EXPECT_TRUE(Same(ApplyShift(image, DefaultShift("blur"), 1), ApplyShift(image, DefaultShift("blur"), 2)));
  cv::Mat blurred = ApplyShift(image, DefaultShift("blur"), 0);
  EXPECT_LT(blurred.at<uchar>(4, 7), image.at<uchar>(4, 7));  // a corner of the garment softens
  EXPECT_EQ(blurred.at<uchar>(14, 14), 200);                  // the inside stays
  // Rotation keeps the centre and loses a corner of a white square to the black border.
  const cv::Mat white(28, 28, CV_8UC1, cv::Scalar(255));
  int changed = 0;
  for (uint64_t i = 0; i < 10; ++i) {
    const cv::Mat rotated = ApplyShift(white, DefaultShift("rotate"), i);
    EXPECT_EQ(rotated.at<uchar>(14, 14), 255);
    changed += rotated.at<uchar>(0, 0) < 128;
  }
  EXPECT_GE(changed, 7);
  EXPECT_THROW(DefaultShift("snow"), Error);
  EXPECT_NE(DefaultShift("rotate").Describe().find("seed 7003"), std::string::npos);
  const cv::Mat colour(10, 10, CV_8UC3, cv::Scalar(10, 100, 200));
  EXPECT_EQ(ApplyShift(colour, DefaultShift("noise"), 0).type(), CV_8UC3);
}

}  // namespace
}  // namespace evalsuite::datasets
