// max_pool2d(relu(batch_norm(x)), 2) as one operation with its own backward, for channels-last float input on the
// CPU. Internal to training/ (includes LibTorch).
// Why: in the built-in model these three memory-bound steps and their backward passes (batch norm's, threshold's,
// max pool's with its zero fill) were half of a training step, each reading and writing the full-resolution
// activations; fused, the forward reads them twice (statistics, then normalize-pool) and writes only the pooled
// quarter with an index per output saying which input won, and the backward reads and writes them once.
#pragma once

#include <torch/torch.h>

namespace evalsuite::training {

// F::max_pool2d(torch::relu(bn(x)), 2), computed in one pass when x is 4-d float on the CPU, channels-last
// contiguous, at least 2x2, with a multiple of 4 channels, and bn is affine and tracks running statistics (otherwise it
// composes the three LibTorch operations: NCHW tensors, bf16 under autocast). Fused, as bn does: in training mode it
// normalizes with the batch's statistics (biased variance), updates the running mean and variance (unbiased, with bn's
// momentum, or the cumulative average when it has none) and num_batches_tracked, and is differentiable in x, bn's
// weight and bn's bias; in eval mode it normalizes with the running statistics. Pooling is 2x2 with stride 2, floor
// mode (an odd last row or column is left out); a tie goes to the window's first input in row order; NaN propagates as
// max_pool2d and relu propagate it. Sums are taken in double over fixed chunks of images, so the result does not depend
// on the thread count. It differs from the composed operations in the last bits (another summation order). Returns [N,
// C, H/2, W/2], channels-last.
torch::Tensor BatchNormReluPool(const torch::Tensor& x, torch::nn::BatchNorm2d& bn);

}  // namespace evalsuite::training
