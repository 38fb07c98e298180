// PIL's antialiased resampling (Image.resize with BILINEAR or BICUBIC on 8-bit images), which is what
// torchvision's Resize does on PIL images: a separable filter whose support widens with the downscale factor,
// coefficients normalized to sum 1 then rounded to 22-bit fixed point, a horizontal pass rounded to 8 bits, then
// a vertical pass. Written from PIL's documented algorithm (libImaging/Resample.c), not copied; OpenCV has no
// such kernel (INTER_AREA averages boxes, INTER_LINEAR/CUBIC do not widen their support when shrinking).
#pragma once

#include <opencv2/core.hpp>

namespace evalsuite::datasets {

enum class PilFilter { kBilinear, kBicubic };

// Resizes `image` (CV_8UC1 or CV_8UC3, any channel order) to `size` and returns only the pixels inside `roi`
// (a rectangle of the resized image): the same values as cropping PIL's full result, computed for the kept
// pixels only. An empty roi means the whole resized image.
cv::Mat PilResize(const cv::Mat& image, cv::Size size, PilFilter filter, cv::Rect roi = {});

}  // namespace evalsuite::datasets
