#include "training/train_step.h"

#include <ATen/autocast_mode.h>

#include <chrono>

namespace evalsuite::training {
namespace {

namespace F = torch::nn::functional;
using Clock = std::chrono::steady_clock;

// bfloat16 autocast for the forward pass, as Python's torch.autocast("cpu") does it: the cache of casted
// weights is cleared on exit, since the optimizer step changes the fp32 weights it was made from.
class CpuAutocast {
 public:
  explicit CpuAutocast(bool enabled) : enabled_(enabled) {
    if (!enabled_) return;
    previous_enabled_ = at::autocast::is_cpu_enabled();
    previous_dtype_ = at::autocast::get_autocast_cpu_dtype();
    at::autocast::set_cpu_enabled(true);
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::increment_nesting();
  }
  ~CpuAutocast() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_cpu_enabled(previous_enabled_);
    at::autocast::set_autocast_cpu_dtype(previous_dtype_);
  }
  CpuAutocast(const CpuAutocast&) = delete;
  CpuAutocast& operator=(const CpuAutocast&) = delete;

 private:
  bool enabled_;
  bool previous_enabled_ = false;
  at::ScalarType previous_dtype_ = at::kBFloat16;
};

void SetLearningRate(torch::optim::SGD& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
}

}  // namespace

TrainStep::TrainStep(ConvNet model, const entries::Recipe& recipe)
    : model_(model),
      optimizer_(model_->parameters(), torch::optim::SGDOptions(recipe.learning_rate)
                                           .momentum(recipe.momentum)
                                           .nesterov(recipe.nesterov)
                                           .weight_decay(recipe.weight_decay)),
      parameters_(model_->parameters()),
      cross_entropy_(F::CrossEntropyFuncOptions().label_smoothing(recipe.label_smoothing)),
      bf16_(recipe.precision == "bf16") {}

double TrainStep::Run(const torch::Tensor& images, const torch::Tensor& labels, double lr, StepTimes& times) {
  Clock::time_point mark = Clock::now();
  auto lap = [&mark](double& into) {
    const Clock::time_point now = Clock::now();
    into += std::chrono::duration<double>(now - mark).count();
    mark = now;
  };
  const torch::Tensor x = images.contiguous(at::MemoryFormat::ChannelsLast);
  SetLearningRate(optimizer_, lr);
  // Gradients are dropped rather than zeroed (PyTorch 2's default, set_to_none): backward then hands its
  // fresh gradient buffers to the parameters instead of adding them into zero-filled ones.
  for (torch::Tensor& p : parameters_) p.mutable_grad().reset();
  lap(times.data);
  torch::Tensor logits;
  {
    CpuAutocast autocast(bf16_);
    logits = model_->forward(x);
  }
  torch::Tensor loss = F::cross_entropy(logits.to(torch::kFloat32), labels, cross_entropy_);
  lap(times.forward);
  loss.backward();
  lap(times.backward);
  optimizer_.step();
  const double loss_value = loss.item<double>();
  lap(times.optimizer);
  return loss_value;
}

}  // namespace evalsuite::training
