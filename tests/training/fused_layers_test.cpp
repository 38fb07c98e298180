// The built-in model's own operations against LibTorch's, the oracle: BatchNormReluPool against
// max_pool2d(relu(batch_norm(x)), 2) composed (outputs, running statistics, and the gradients of x, weight and bias),
// DenseProduct against addmm (output and gradients). Both sides run in the same process on the same inputs; the
// fused sums differ in order only, so they agree to float rounding.
#include <gtest/gtest.h>

#include "training/batch_norm_relu_pool.h"
#include "training/dense_product.h"

namespace evalsuite::training {
namespace {

namespace F = torch::nn::functional;

// The largest |a - b| relative to b's largest magnitude.
double RelativeGap(const torch::Tensor& a, const torch::Tensor& b) {
  const double scale = std::max(1e-12, b.abs().max().item<double>());
  return (a - b).abs().max().item<double>() / scale;
}

struct Result {
  torch::Tensor out, dx, dweight, dbias, running_mean, running_var;
  int64_t batches_tracked = 0;
};

// One forward and backward through `bn` (a fresh copy of the same parameters for each side) with a fixed
// upstream gradient, fused or composed.
Result RunLayer(const torch::Tensor& x_in, const torch::Tensor& upstream, bool fused, bool training,
                c10::optional<double> momentum = 0.1) {
  torch::manual_seed(7);
  torch::nn::BatchNorm2d bn(torch::nn::BatchNorm2dOptions(x_in.size(1)).momentum(momentum));
  {
    torch::NoGradGuard no_grad;
    bn->weight.copy_(torch::rand({x_in.size(1)}) * 2 - 0.5);  // some negative scales: pooling after them flips
    bn->bias.copy_(torch::randn({x_in.size(1)}) * 0.3);
    bn->running_mean.copy_(torch::randn({x_in.size(1)}));
    bn->running_var.copy_(torch::rand({x_in.size(1)}) + 0.5);
  }
  training ? bn->train() : bn->eval();
  torch::Tensor x = x_in.clone(at::MemoryFormat::ChannelsLast).requires_grad_(true);
  torch::Tensor out = fused ? BatchNormReluPool(x, bn) : F::max_pool2d(torch::relu(bn(x)), F::MaxPool2dFuncOptions(2));
  (out * upstream).sum().backward();
  return {out.detach(),
          x.grad(),
          bn->weight.grad(),
          bn->bias.grad(),
          bn->running_mean.clone(),
          bn->running_var.clone(),
          bn->num_batches_tracked.item<int64_t>()};
}

void ExpectSame(const Result& fused, const Result& composed, double tolerance) {
  EXPECT_LT(RelativeGap(fused.out, composed.out), tolerance);
  EXPECT_LT(RelativeGap(fused.dx, composed.dx), tolerance);
  EXPECT_LT(RelativeGap(fused.dweight, composed.dweight), tolerance);
  EXPECT_LT(RelativeGap(fused.dbias, composed.dbias), tolerance);
  EXPECT_LT(RelativeGap(fused.running_mean, composed.running_mean), tolerance);
  EXPECT_LT(RelativeGap(fused.running_var, composed.running_var), tolerance);
  EXPECT_EQ(fused.batches_tracked, composed.batches_tracked);
  EXPECT_TRUE(fused.out.is_contiguous(at::MemoryFormat::ChannelsLast));
}

TEST(BatchNormReluPool, MatchesTheComposedOperationsInTraining) {
  for (const auto& shape : std::vector<std::vector<int64_t>>{
           {16, 16, 28, 28}, {5, 32, 14, 14}, {3, 8, 7, 9}, {1, 8, 2, 2}, {2, 24, 5, 6}, {2, 64, 4, 4}}) {
    SCOPED_TRACE(torch::IntArrayRef(shape));
    torch::manual_seed(1);
    const torch::Tensor x = torch::randn(shape) * 2 + 0.5;
    const torch::Tensor upstream = torch::randn({shape[0], shape[1], shape[2] / 2, shape[3] / 2});
    const Result fused = RunLayer(x, upstream, true, true);
    const Result composed = RunLayer(x, upstream, false, true);
    ExpectSame(fused, composed, 1e-4);
    // The odd last row and column (7 x 9, 5 x 6) are left out of the pooling but not of the statistics, and get a
    // gradient.
    EXPECT_NE(fused.dx.select(2, shape[2] - 1).abs().sum().item<double>(), 0.0);
  }
}

TEST(BatchNormReluPool, MatchesTheComposedOperationsWithoutMomentumAndInEvalMode) {
  torch::manual_seed(2);
  const torch::Tensor x = torch::randn({6, 8, 10, 10});
  const torch::Tensor upstream = torch::randn({6, 8, 5, 5});
  ExpectSame(RunLayer(x, upstream, true, true, c10::nullopt), RunLayer(x, upstream, false, true, c10::nullopt), 1e-4);

  torch::manual_seed(3);
  torch::nn::BatchNorm2d bn(8);
  {
    torch::NoGradGuard no_grad;
    bn->running_mean.copy_(torch::randn({8}));
    bn->running_var.copy_(torch::rand({8}) + 0.5);
    bn->weight.copy_(torch::randn({8}));
  }
  bn->eval();
  const torch::Tensor xc = x.contiguous(at::MemoryFormat::ChannelsLast);
  torch::NoGradGuard no_grad;
  const torch::Tensor fused = BatchNormReluPool(xc, bn);
  const torch::Tensor composed = F::max_pool2d(torch::relu(bn(xc)), F::MaxPool2dFuncOptions(2));
  EXPECT_LT(RelativeGap(fused, composed), 1e-5);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 0) << "eval mode must not count a batch";
}

TEST(BatchNormReluPool, AGradientThroughAnEvalModeLayerIsTheComposedOne) {
  torch::manual_seed(4);
  const torch::Tensor x = torch::randn({4, 8, 6, 6});
  const torch::Tensor upstream = torch::randn({4, 8, 3, 3});
  ExpectSame(RunLayer(x, upstream, true, false), RunLayer(x, upstream, false, false), 1e-5);
}

TEST(BatchNormReluPool, PropagatesNaNAsMaxPoolAndReluDo) {
  torch::manual_seed(5);
  torch::nn::BatchNorm2d bn(8);
  bn->eval();
  torch::Tensor x = torch::randn({2, 8, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast);
  x.index_put_({0, 1, 3, 2}, std::nanf(""));
  torch::NoGradGuard no_grad;
  const torch::Tensor fused = BatchNormReluPool(x, bn);
  const torch::Tensor composed = F::max_pool2d(torch::relu(bn(x)), F::MaxPool2dFuncOptions(2));
  EXPECT_TRUE(std::isnan(fused.index({0, 1, 1, 1}).item<float>()));
  EXPECT_TRUE(torch::equal(torch::isnan(fused), torch::isnan(composed)));
}

TEST(BatchNormReluPool, TheResultDoesNotDependOnTheThreadCount) {
  torch::manual_seed(6);
  const torch::Tensor x = torch::randn({37, 16, 12, 12});
  const torch::Tensor upstream = torch::randn({37, 16, 6, 6});
  const int threads = torch::get_num_threads();
  torch::set_num_threads(1);
  const Result one = RunLayer(x, upstream, true, true);
  torch::set_num_threads(2);
  const Result two = RunLayer(x, upstream, true, true);
  torch::set_num_threads(threads);
  EXPECT_TRUE(torch::equal(one.out, two.out));
  EXPECT_TRUE(torch::equal(one.dx, two.dx));
  EXPECT_TRUE(torch::equal(one.dweight, two.dweight));
  EXPECT_TRUE(torch::equal(one.running_var, two.running_var));
}

TEST(BatchNormReluPool, ComposesTheOperationsWhereItCannotFuse) {
  torch::manual_seed(8);
  torch::nn::BatchNorm2d bn(8);
  const torch::Tensor nchw = torch::randn({2, 8, 6, 6});  // not channels-last
  const torch::Tensor out = BatchNormReluPool(nchw, bn);
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2, 8, 3, 3}));
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  const torch::Tensor three_channels = torch::randn({2, 3, 6, 6}).contiguous(at::MemoryFormat::ChannelsLast);
  torch::nn::BatchNorm2d bn3(3);
  EXPECT_EQ(BatchNormReluPool(three_channels, bn3).sizes(), (std::vector<int64_t>{2, 3, 3, 3}));
}

TEST(DenseProduct, MatchesAddmmAndItsGradients) {
  torch::manual_seed(9);
  for (const auto& [rows, inputs, outputs] :
       std::vector<std::tuple<int64_t, int64_t, int64_t>>{{128, 1568, 128}, {3, 128, 10}, {1, 1, 1}, {65, 7, 33}}) {
    SCOPED_TRACE(rows);
    const torch::Tensor x0 = torch::randn({rows, inputs});
    const torch::Tensor w0 = torch::randn({outputs, inputs});
    const torch::Tensor b0 = torch::randn({outputs});
    const torch::Tensor upstream = torch::randn({rows, outputs});
    auto run = [&](bool ours) {
      torch::Tensor x = x0.clone().requires_grad_(true);
      torch::Tensor w = w0.clone().requires_grad_(true);
      torch::Tensor b = b0.clone().requires_grad_(true);
      torch::Tensor y = ours ? DenseProduct(x, w, b) : torch::addmm(b, x, w.t());
      (y * upstream).sum().backward();
      return std::vector<torch::Tensor>{y.detach(), x.grad(), w.grad(), b.grad()};
    };
    const auto ours = run(true);
    const auto reference = run(false);
    for (size_t i = 0; i < ours.size(); ++i) EXPECT_LT(RelativeGap(ours[i], reference[i]), 1e-5) << "output " << i;
  }
  // A view that is not contiguous (the transposed weight) is copied, not misread.
  const torch::Tensor x = torch::randn({4, 6});
  const torch::Tensor w = torch::randn({6, 5}).t();
  const torch::Tensor b = torch::zeros({5});
  EXPECT_LT(RelativeGap(DenseProduct(x, w, b), torch::addmm(b, x, w.t())), 1e-5);
  EXPECT_THROW(DenseProduct(x, torch::randn({5, 7}), b), c10::Error);
  EXPECT_EQ(DenseProduct(torch::randn({0, 6}), torch::randn({5, 6}), b).sizes(), (std::vector<int64_t>{0, 5}));
}

}  // namespace
}  // namespace evalsuite::training
