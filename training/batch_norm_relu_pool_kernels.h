// The loops of BatchNormReluPool (batch_norm_relu_pool.h) on plain float arrays, without LibTorch: channels-last
// [N, H, W, C] input (C as PoolKernelsTake allows), 2x2 windows with stride 2 (an odd last row or column belongs to no
// window). Each works on the images [first, last), so the caller can split a batch over threads, and adds its sums into
// the caller's arrays (double [C]), so the caller fixes the order in which they are added.
#pragma once

#include <cstdint>

namespace evalsuite::training {

struct PoolShape {
  int64_t n, c, h, w;
  int64_t pooled_h() const { return h / 2; }
  int64_t pooled_w() const { return w / 2; }
};

// Whether these kernels take `channels`: a multiple of 4 (they work four channels at a time), at most 512.
bool PoolKernelsTake(int64_t channels);

// The index of a pooled output whose window maximum was not positive: relu passed no gradient back.
inline constexpr int32_t kInactiveWindow = 4;

// sum[c] += sum of (x - reference[c]), sum_sq[c] += sum of its square: the moments about a reference value near
// the data, so that the variance, sum_sq / n - (sum / n)^2, does not cancel away (x's mean may be far from 0).
void AddShiftedMoments(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* reference,
                       double* sum, double* sum_sq);

// out [N, H/2, W/2, C] = max over each window of relu(x * scale + shift); index = which of the window's four
// inputs (row order) gave it, or kInactiveWindow when the maximum was not positive. A later input wins when it is
// greater or NaN (max_pool2d's rule, so NaN propagates); relu keeps NaN.
void NormalizeReluPool(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* scale,
                       const float* shift, float* out, int32_t* index);

// Over the inputs that won an active window (the others get no gradient from the pooled output `grad`):
// sum_dy[c] += their gradient, sum_dy_xhat[c] += gradient * (x - mean[c]) * inv_std[c].
void AddGradientSums(const float* x, const float* grad, const int32_t* index, const PoolShape& s, int64_t first,
                     int64_t last, const float* mean, const float* inv_std, double* sum_dy, double* sum_dy_xhat);

// dx = a[c] * dy - b[c] - d[c] * (x - mean[c]) for every input, dy being the pooled gradient where the input won
// an active window and 0 elsewhere (batch norm's backward, with a, b, d from the sums above).
void InputGradient(const float* x, const float* grad, const int32_t* index, const PoolShape& s, int64_t first,
                   int64_t last, const float* a, const float* b, const float* d, const float* mean, float* dx);

}  // namespace evalsuite::training
