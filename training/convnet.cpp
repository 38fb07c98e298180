#include "training/convnet.h"

#include <ATen/autocast_mode.h>
#include <fmt/format.h>

#include "common/error.h"
#include "common/onednn_isa_cap.h"
#include "training/batch_norm_relu_pool.h"
#include "training/dense_product.h"

namespace evalsuite::training {
namespace nn = torch::nn;
namespace F = torch::nn::functional;

namespace {

// oneDNN reads its ISA cap at its first use, which may come before Train() in a process that builds models
// itself (tests, benches): decide it when this library is loaded. main() and Train() call it too (once only).
[[maybe_unused]] const bool kOneDnnPrepared = !evalsuite::PrepareOneDnnForThisMachine().is_null();
constexpr int kFeatureGrid = 7;  // 28 / 2 / 2: the grid the 7x7 head convolution covers
constexpr double kBatchNormEps = 1e-5;
}  // namespace

ConvNetImpl::ConvNetImpl(const entries::ModelSpec& spec) : spec_(spec) {
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(1, spec.conv1_channels, 3).padding(1).bias(false)));
  bn1 = register_module("bn1", nn::BatchNorm2d(nn::BatchNorm2dOptions(spec.conv1_channels).eps(kBatchNormEps)));
  conv2 = register_module(
      "conv2", nn::Conv2d(nn::Conv2dOptions(spec.conv1_channels, spec.conv2_channels, 3).padding(1).bias(false)));
  bn2 = register_module("bn2", nn::BatchNorm2d(nn::BatchNorm2dOptions(spec.conv2_channels).eps(kBatchNormEps)));
  head = register_module("head", nn::Conv2d(nn::Conv2dOptions(spec.conv2_channels, spec.head_units, kFeatureGrid)));
  out = register_module("out", nn::Linear(spec.head_units, entries::kNumClasses));
}

torch::Tensor ConvNetImpl::forward(torch::Tensor x) {
  x = BatchNormReluPool(conv1(x), bn1);  // max_pool2d(relu(bn1(conv1(x))), 2), fused where it can be
  x = BatchNormReluPool(conv2(x), bn2);
  if (x.size(2) != kFeatureGrid || x.size(3) != kFeatureGrid) {
    x = F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions({kFeatureGrid, kFeatureGrid}));
  }
  if (x.scalar_type() != torch::kFloat32 || at::autocast::is_cpu_enabled()) {
    x = torch::relu(head(x)).flatten(1);
    return out(x);
  }
  // In fp32 the head, a 7x7 convolution over the 7x7 grid, is a dense layer over the grid's values: both sides
  // are read in the channels-last order they are stored in (views, no copy, after UseChannelsLast), and the
  // products run in oneDNN's sgemm (dense_product.h says why), about 4x faster than the convolution.
  const torch::Tensor grid = x.permute({0, 2, 3, 1}).reshape({x.size(0), -1});
  const torch::Tensor head_weight = head->weight.permute({0, 2, 3, 1}).reshape({head->weight.size(0), -1});
  x = torch::relu(DenseProduct(grid, head_weight, head->bias));
  return DenseProduct(x, out->weight, out->bias);
}

void UseChannelsLast(ConvNet& model) {
  torch::NoGradGuard no_grad;
  for (torch::Tensor& p : model->parameters()) {
    // Not p.contiguous(ChannelsLast): conv1's [16, 1, 3, 3] weight already counts as channels-last-contiguous
    // (one input channel makes the layouts coincide), so that returns it unchanged with NCHW strides, conv1
    // then emits NCHW activations and every later layer converts back and forth (1.7x slower per step).
    // A fresh channels-last tensor gets the strides that make LibTorch propagate the format.
    if (p.dim() == 4) p.set_data(torch::empty_like(p, at::MemoryFormat::ChannelsLast).copy_(p));
  }
}

torch::jit::Module ExportTorchScript(ConvNet& model) {
  torch::NoGradGuard no_grad;
  torch::jit::Module module("EvalsuiteFashionConvNet");
  auto copy = [](const torch::Tensor& t) { return t.detach().to(torch::kFloat32).contiguous().clone(); };
  auto add_param = [&](const std::string& name, const torch::Tensor& t) {
    module.register_parameter(name, copy(t), /*is_buffer=*/false);
  };
  add_param("conv1_weight", model->conv1->weight);
  add_param("bn1_weight", model->bn1->weight);
  add_param("bn1_bias", model->bn1->bias);
  module.register_buffer("bn1_running_mean", copy(model->bn1->running_mean));
  module.register_buffer("bn1_running_var", copy(model->bn1->running_var));
  add_param("conv2_weight", model->conv2->weight);
  add_param("bn2_weight", model->bn2->weight);
  add_param("bn2_bias", model->bn2->bias);
  module.register_buffer("bn2_running_mean", copy(model->bn2->running_mean));
  module.register_buffer("bn2_running_var", copy(model->bn2->running_var));
  add_param("head_weight", model->head->weight);
  add_param("head_bias", model->head->bias);
  add_param("out_weight", model->out->weight);
  add_param("out_bias", model->out->bias);
  // Mirrors ConvNetImpl::forward in eval mode, with the input normalization in front so that consumers feed
  // plain [0, 1] pixels.
  module.define(fmt::format(R"JIT(
def forward(self, x):
    x = (x - {mean:.17g}) / {std:.17g}
    x = torch.conv2d(x, self.conv1_weight, None, [1, 1], [1, 1])
    x = torch.batch_norm(x, self.bn1_weight, self.bn1_bias, self.bn1_running_mean, self.bn1_running_var,
                         False, 0.0, {eps:.17g}, False)
    x = torch.max_pool2d(torch.relu(x), [2, 2])
    x = torch.conv2d(x, self.conv2_weight, None, [1, 1], [1, 1])
    x = torch.batch_norm(x, self.bn2_weight, self.bn2_bias, self.bn2_running_mean, self.bn2_running_var,
                         False, 0.0, {eps:.17g}, False)
    x = torch.max_pool2d(torch.relu(x), [2, 2])
    if x.size(2) != {grid} or x.size(3) != {grid}:
        x = torch.adaptive_avg_pool2d(x, [{grid}, {grid}])
    x = torch.relu(torch.conv2d(x, self.head_weight, self.head_bias))
    x = torch.flatten(x, 1)
    return torch.addmm(self.out_bias, x, self.out_weight.t())
)JIT",
                            fmt::arg("mean", entries::kInputMean), fmt::arg("std", entries::kInputStd),
                            fmt::arg("eps", kBatchNormEps), fmt::arg("grid", kFeatureGrid)));
  module.eval();
  return module;
}

void SaveTorchScript(ConvNet& model, const std::filesystem::path& file) {
  torch::jit::Module module = ExportTorchScript(model);
  try {
    module.save(file.string());
  } catch (const c10::Error& e) {
    throw IoError(file.string(), std::string("cannot write the TorchScript model: ") + e.what_without_backtrace());
  }
}

}  // namespace evalsuite::training
