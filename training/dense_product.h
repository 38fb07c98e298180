// A fully connected layer, y = x W^T + b, whose three matrix products (forward, input and weight gradients) run in
// oneDNN's sgemm. Internal to training/ (includes LibTorch).
// Why not at::addmm: Debian's LibTorch calls the system BLAS, which on a bare Debian is the reference (netlib)
// BLAS: 1.9 GFLOP/s on one Zen 3 core where oneDNN's sgemm, already linked through LibTorch, runs 60-70. The
// built-in model's head (a 7x7 convolution over the 7x7 feature grid, i.e. a dense layer) was 20% of a training
// step through oneDNN's convolution at 13-18 GFLOP/s.
#pragma once

#include <torch/torch.h>

#include <string>

namespace evalsuite::training {

// x: [N, K] float, weight: [M, K] float, bias: [M] float (all on the CPU); returns [N, M]. Differentiable in all
// three (autograd computes dx = dy W, dW = dy^T x, db = sum over N of dy). Inputs that are not contiguous are
// copied first. The result is deterministic for a given thread count; it differs from at::addmm's in the last bits
// (another summation order). Throws c10::Error on other dtypes or shapes.
torch::Tensor DenseProduct(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias);

// The version of the oneDNN library loaded ("2.6.3"), for a run's record of what computed it.
std::string OneDnnVersion();

}  // namespace evalsuite::training
