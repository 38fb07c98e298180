// One SGD training step of a built-in model, as every run takes it: channels-last input, the learning rate, dropped
// gradients, the forward pass under bfloat16 autocast where the recipe trains in bf16, the loss in fp32, backward and
// the optimizer. The trainer and the step probe (step_probe.h) both call it, so that what the precision choice times
// is the step a run will take. Internal to training/ (includes LibTorch).
#pragma once

#include <torch/torch.h>

#include <vector>

#include "entries/builtin_entries.h"
#include "training/convnet.h"
#include "training/step_accounting.h"

namespace evalsuite::training {

class TrainStep {
 public:
  // `model` is shared (its module), not copied: the caller evaluates and saves the model the steps train.
  TrainStep(ConvNet model, const entries::Recipe& recipe);

  // One step on `images` ([B, 1, S, S] float, normalized) and `labels` ([B] int64) at learning rate `lr`; returns
  // the loss. Adds to `times`: data (layout, rate, gradient reset), forward (with the loss), backward, optimizer.
  double Run(const torch::Tensor& images, const torch::Tensor& labels, double lr, StepTimes& times);

 private:
  ConvNet model_;
  torch::optim::SGD optimizer_;
  std::vector<torch::Tensor> parameters_;
  torch::nn::functional::CrossEntropyFuncOptions cross_entropy_;
  bool bf16_;
};

}  // namespace evalsuite::training
