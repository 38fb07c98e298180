// FLOPs, bytes and memory of one training sample of a built-in model, counted layer by layer from the layer
// shapes (no LibTorch: plain structs that stats/, reports/ and the study code can read). Forward, and backward
// as LibTorch computes it: the gradient of each layer's input (none for the first layer, whose input needs no
// gradient) and of its weights. Conventions, one per layer kind (see the counting functions):
//   - a multiply-accumulate is 2 FLOPs; convolution and linear layers count their full dense products (a padded
//     border's zeros included, as cuDNN/oneDNN and PyTorch's own counters do);
//   - elementwise layers count one FLOP per arithmetic operation of the textbook formula (batch norm's mean,
//     variance, normalization and affine; ReLU one comparison; max pooling k*k-1 comparisons per output);
//   - bytes are compulsory traffic: every tensor a layer reads or writes goes through memory once, at the
//     precision it runs in (4 bytes fp32, 2 bytes under bf16 autocast), weights once per batch (so per sample
//     divided by the batch size); caches that keep a layer's tensors between layers are not modelled, which is
//     what a roofline's operational intensity asks for (Williams et al. 2009).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "entries/builtin_entries.h"

namespace evalsuite::training {

// One sample's activation shape: channels x height x width (a flat vector is c x 1 x 1).
struct ActivationShape {
  int64_t c = 0, h = 0, w = 0;
  int64_t Elements() const { return c * h * w; }
};

struct LayerCost {
  std::string name;  // "conv1", "bn1", ...
  std::string kind;  // "conv2d", "linear", "batchnorm", "relu", "maxpool", "adaptive_avgpool", "cross_entropy"
  ActivationShape input, output;
  // Per sample.
  double forward_flops = 0;
  double backward_input_flops = 0;   // d loss / d input; 0 for the first layer
  double backward_weight_flops = 0;  // d loss / d weights and bias
  double forward_bytes = 0;
  double backward_bytes = 0;
  int64_t parameters = 0;  // weights + bias elements (per model, not per sample)
  // Elements per sample this layer creates and autograd keeps until backward (its output when it or the next
  // layer saves it; max pooling's int64 indices are in saved_index_elements). Shared tensors are counted once,
  // by the layer that creates them; the model's input is the input batch, not an activation.
  int64_t saved_elements = 0;
  int64_t saved_index_elements = 0;
  int element_bytes = 4;      // of this layer's activations
  bool saves_input = false;   // its backward reads its input (so the previous layer's output stays alive)
  bool saves_output = false;  // its backward reads its own output

  double SavedBytes() const { return static_cast<double>(saved_elements) * element_bytes + 8.0 * saved_index_elements; }

  double BackwardFlops() const { return backward_input_flops + backward_weight_flops; }
  double TrainingFlops() const { return forward_flops + BackwardFlops(); }
  double TrainingBytes() const { return forward_bytes + backward_bytes; }
};

// The counting functions, one per layer kind. `batch` spreads the weights' traffic over the samples of a
// step; `element_bytes` is 4 (fp32) or 2 (bf16); `needs_input_grad` is false for the first layer.
LayerCost Conv2dCost(const std::string& name, ActivationShape input, int64_t out_channels, int kernel, int stride,
                     int padding, bool bias, bool needs_input_grad, int64_t batch, int element_bytes);
LayerCost LinearCost(const std::string& name, int64_t in_features, int64_t out_features, bool bias,
                     bool needs_input_grad, int64_t batch, int element_bytes);
// Training mode: batch statistics. Forward 8 FLOPs per element (mean 1, variance 3, normalize 2, affine 2);
// backward: weights 3 (d beta 1, d gamma 2), input 7 (recompute x-hat 2, subtract both means 3, scale 2).
LayerCost BatchNormCost(const std::string& name, ActivationShape shape, int64_t batch, int element_bytes);
// Forward 1 comparison per element, backward 1 (mask); the output is saved.
LayerCost ReluCost(const std::string& name, ActivationShape shape, int element_bytes);
// kernel x kernel, stride kernel: forward kernel^2 - 1 comparisons per output; backward scatters (0 FLOPs);
// saves int64 indices per output.
LayerCost MaxPoolCost(const std::string& name, ActivationShape input, int kernel, int element_bytes);
// Adaptive average pooling to out_h x out_w with PyTorch's windows [floor(i*in/out), ceil((i+1)*in/out)):
// forward window-size - 1 adds and 1 divide per output; backward 1 divide per output and 1 add per window cell.
LayerCost AdaptiveAvgPoolCost(const std::string& name, ActivationShape input, int64_t out_h, int64_t out_w,
                              int element_bytes);
// Log-softmax + negative log-likelihood over `classes` logits (fp32, as the trainer casts them): forward 5C+2
// (max, subtract, exp, sum, subtract the log per class; the log 1; the pick 1); backward 4C (LibTorch's
// log_softmax_backward: sum of the incoming gradient, exp of the saved output, multiply, subtract). Saves the
// log-softmax.
LayerCost CrossEntropyCost(const std::string& name, int64_t classes);

struct ModelCost {
  int side = entries::kInputSide;  // input side the counts are for
  int64_t batch = 0;
  int element_bytes = 4;
  std::vector<LayerCost> layers;
  int64_t parameters = 0;
  int64_t input_elements = 0;  // one sample's input

  double ForwardFlops() const;
  double BackwardInputFlops() const;
  double BackwardWeightFlops() const;
  double TrainingFlops() const { return ForwardFlops() + BackwardInputFlops() + BackwardWeightFlops(); }
  double ForwardBytes() const;
  double TrainingBytes() const;
  // FLOPs per byte of one training sample (forward + backward).
  double TrainingIntensity() const;
  double SavedBytes() const;  // activations (and pooling indices) kept for backward, per sample
};

// The built-in ConvNet (training/convnet.h) at input side `side`, in the precision `precision`
// ("fp32" or "bf16": convolutions, linear and the elementwise layers between them at 2 bytes per element).
ModelCost CountConvNetCost(const entries::ModelSpec& spec, int side, int64_t batch, const std::string& precision);

// SGD's arithmetic per parameter per step: weight decay 2, momentum 2, Nesterov 2, update 2.
double SgdFlopsPerStep(int64_t parameters, const entries::Recipe& recipe);

// Where training memory goes, in bytes (TBD's categories; PyTorch's memory profiler uses the same):
// parameters, gradients, optimizer state (momentum buffers), activations saved for backward, temporaries
// (the largest set of tensors alive only inside one layer's forward or backward: its output before the next
// layer consumes it, and the gradients flowing in and out), the input batch (images and int64 labels), and the
// dataset tensors the trainer keeps in memory (normalized float images of every split it reads).
struct MemoryBreakdown {
  double parameters = 0;
  double gradients = 0;
  double optimizer_state = 0;
  double activations = 0;
  double temporaries = 0;
  double input_batch = 0;
  double dataset = 0;
  // Between steps: parameters, gradients, optimizer state and the dataset. At the peak (the start of backward)
  // the activations, temporaries and the input batch come on top.
  double Steady() const { return parameters + gradients + optimizer_state + dataset; }
  double Peak() const { return Steady() + activations + temporaries + input_batch; }
};

// Counted from the model's cost at the batch size and precision of `recipe`; `dataset_images` images of
// `side` x `side` floats are held (0 to leave the dataset out).
MemoryBreakdown CountTrainingMemory(const ModelCost& cost, const entries::Recipe& recipe, int64_t dataset_images);

nlohmann::json LayerCostToJson(const LayerCost& layer);
// {side, batch, element_bytes, parameters, forward_flops, backward_input_flops, backward_weight_flops,
//  training_flops, forward_bytes, training_bytes, intensity, layers [...]} per sample.
nlohmann::json ModelCostToJson(const ModelCost& cost);
nlohmann::json MemoryBreakdownToJson(const MemoryBreakdown& memory);

}  // namespace evalsuite::training
