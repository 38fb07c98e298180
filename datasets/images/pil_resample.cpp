#include "datasets/images/pil_resample.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/error.h"

namespace evalsuite::datasets {
namespace {

// PIL keeps 8 bits for the result, 2 for overflow of filters with negative lobes, and 22 for the fraction.
constexpr int kPrecisionBits = 32 - 8 - 2;
constexpr int32_t kHalf = 1 << (kPrecisionBits - 1);

double Bilinear(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

// Keys' cubic convolution with a = -0.5, as PIL's BICUBIC.
double Bicubic(double x) {
  constexpr double a = -0.5;
  x = std::fabs(x);
  if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
  if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
  return 0.0;
}

// The taps of one axis, for output positions [first, first + count): for output i, input positions
// start[i] .. start[i] + taps[i] - 1 weighted by weights[i * width ...] in 22-bit fixed point.
struct Taps {
  int width = 0;  // stride of `weights`
  std::vector<int> start;
  std::vector<int> taps;
  std::vector<int32_t> weights;
};

Taps ComputeTaps(int in_size, int out_size, int first, int count, PilFilter filter) {
  const double support_1 = filter == PilFilter::kBicubic ? 2.0 : 1.0;
  double (*kernel)(double) = filter == PilFilter::kBicubic ? Bicubic : Bilinear;
  // PIL passes the box edges as floats; the scale is computed in double from them.
  const double scale = static_cast<double>(static_cast<float>(in_size)) / out_size;
  const double filter_scale = std::max(scale, 1.0);  // the support widens only when shrinking
  const double support = support_1 * filter_scale;
  Taps t;
  t.width = static_cast<int>(std::ceil(support)) * 2 + 1;
  t.start.resize(count);
  t.taps.resize(count);
  t.weights.assign(static_cast<size_t>(count) * t.width, 0);
  std::vector<double> w(t.width);
  for (int i = 0; i < count; ++i) {
    const int xx = first + i;
    const double center = (xx + 0.5) * scale;
    // PIL rounds the bounds by adding 0.5 and truncating toward zero.
    const int lo = std::max(0, static_cast<int>(center - support + 0.5));
    const int hi = std::min(in_size, static_cast<int>(center + support + 0.5));
    const int n = std::max(0, hi - lo);
    double total = 0.0;
    for (int x = 0; x < n; ++x) {
      w[x] = kernel((x + lo - center + 0.5) / filter_scale);
      total += w[x];
    }
    int32_t* k = &t.weights[static_cast<size_t>(i) * t.width];
    for (int x = 0; x < n; ++x) {
      const double v = total != 0.0 ? w[x] / total : w[x];
      // Round half away from zero into fixed point, as PIL's normalize_coeffs_8bpc.
      k[x] = static_cast<int32_t>(v < 0 ? -0.5 + v * (1 << kPrecisionBits) : 0.5 + v * (1 << kPrecisionBits));
    }
    t.start[i] = lo;
    t.taps[i] = n;
  }
  return t;
}

inline uint8_t Clip8(int32_t accumulator) {
  const int32_t v = accumulator >> kPrecisionBits;  // arithmetic shift: floor, as PIL's lookup table
  return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

// Horizontal pass over rows [row0, row0 + rows) of `in`, into `out` (rows x taps.count, 8-bit, rounded).
template <int C>
void Horizontal(const cv::Mat& in, int row0, int rows, const Taps& t, cv::Mat& out) {
  const int count = static_cast<int>(t.start.size());
  out.create(rows, count, CV_8UC(C));
  for (int y = 0; y < rows; ++y) {
    const uint8_t* src = in.ptr<uint8_t>(row0 + y);
    uint8_t* dst = out.ptr<uint8_t>(y);
    for (int i = 0; i < count; ++i) {
      const int32_t* k = &t.weights[static_cast<size_t>(i) * t.width];
      const uint8_t* s = src + static_cast<size_t>(t.start[i]) * C;
      int32_t acc[C];
      for (int c = 0; c < C; ++c) acc[c] = kHalf;
      for (int x = 0; x < t.taps[i]; ++x) {
        for (int c = 0; c < C; ++c) acc[c] += s[x * C + c] * k[x];
      }
      for (int c = 0; c < C; ++c) dst[i * C + c] = Clip8(acc[c]);
    }
  }
}

// Vertical pass: output row i of `out` combines rows start[i] - row0 ... of `in`.
void Vertical(const cv::Mat& in, int row0, const Taps& t, cv::Mat& out) {
  const int count = static_cast<int>(t.start.size());
  const int values = in.cols * in.channels();
  out.create(count, in.cols, in.type());
  std::vector<int32_t> acc(values);
  for (int i = 0; i < count; ++i) {
    std::fill(acc.begin(), acc.end(), kHalf);
    const int32_t* k = &t.weights[static_cast<size_t>(i) * t.width];
    for (int y = 0; y < t.taps[i]; ++y) {
      const uint8_t* src = in.ptr<uint8_t>(t.start[i] - row0 + y);
      const int32_t ky = k[y];
      for (int v = 0; v < values; ++v) acc[v] += src[v] * ky;
    }
    uint8_t* dst = out.ptr<uint8_t>(i);
    for (int v = 0; v < values; ++v) dst[v] = Clip8(acc[v]);
  }
}

}  // namespace

cv::Mat PilResize(const cv::Mat& image, cv::Size size, PilFilter filter, cv::Rect roi) {
  if (image.depth() != CV_8U || (image.channels() != 1 && image.channels() != 3)) {
    throw Error(ErrorKind::kInternal, "PilResize", "expects an 8-bit image with 1 or 3 channels");
  }
  if (size.width < 1 || size.height < 1) throw Error(ErrorKind::kInternal, "PilResize", "empty output size");
  if (roi.empty()) roi = cv::Rect(0, 0, size.width, size.height);
  if ((roi & cv::Rect(0, 0, size.width, size.height)) != roi) {
    throw Error(ErrorKind::kInternal, "PilResize", "region outside the resized image");
  }
  // PIL skips a pass whose size does not change (a copy): so do we.
  const bool horizontal = size.width != image.cols;
  const bool vertical = size.height != image.rows;

  int row0 = roi.y, rows = roi.height;
  Taps vertical_taps;
  if (vertical) {
    vertical_taps = ComputeTaps(image.rows, size.height, roi.y, roi.height, filter);
    row0 = vertical_taps.start.front();
    int row_end = row0;
    for (size_t i = 0; i < vertical_taps.start.size(); ++i) {
      row_end = std::max(row_end, vertical_taps.start[i] + vertical_taps.taps[i]);
    }
    rows = row_end - row0;
  }
  cv::Mat rows_done;  // the source rows the vertical pass needs, horizontally resampled and cropped
  if (horizontal) {
    const Taps horizontal_taps = ComputeTaps(image.cols, size.width, roi.x, roi.width, filter);
    if (image.channels() == 3) {
      Horizontal<3>(image, row0, rows, horizontal_taps, rows_done);
    } else {
      Horizontal<1>(image, row0, rows, horizontal_taps, rows_done);
    }
  } else {
    rows_done = image(cv::Rect(roi.x, row0, roi.width, rows));
  }
  if (!vertical) return rows_done.clone();
  cv::Mat out;
  Vertical(rows_done, row0, vertical_taps, out);
  return out;
}

}  // namespace evalsuite::datasets
