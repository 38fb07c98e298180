// The LibTorch model of every built-in entry (see entries::ModelSpec) and its export to TorchScript.
// Internal to training/ and its tests: the only header of the project that includes LibTorch.
#pragma once

#include <torch/script.h>
#include <torch/torch.h>

#include <filesystem>

#include "entries/builtin_entries.h"

namespace evalsuite::training {

// Input: [N, 1, H, W] float, already normalized ((x - kInputMean) / kInputStd). Output: [N, 10] logits.
class ConvNetImpl : public torch::nn::Module {
 public:
  explicit ConvNetImpl(const entries::ModelSpec& spec);
  torch::Tensor forward(torch::Tensor x);

  const entries::ModelSpec& spec() const { return spec_; }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, head{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Linear out{nullptr};

 private:
  entries::ModelSpec spec_;
};
TORCH_MODULE(ConvNet);

// Stores 4-d weights channels-last: oneDNN's fast path on CPU for these small convolutions.
void UseChannelsLast(ConvNet& model);

// A standalone TorchScript module with `model`'s current weights (copied) whose forward takes [N, 1, H, W]
// float pixels in [0, 1] (normalization happens inside) and returns [N, 10] logits, in inference mode (batch
// norm uses its running statistics). Loadable by torch::jit::load and Python's torch.jit.load.
torch::jit::Module ExportTorchScript(ConvNet& model);
// ExportTorchScript(model).save(file); throws IoError naming the file when it can't be written.
void SaveTorchScript(ConvNet& model, const std::filesystem::path& file);

}  // namespace evalsuite::training
