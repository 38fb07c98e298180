#include "training/model_cost.h"

#include <algorithm>

namespace evalsuite::training {
namespace {

double D(int64_t v) { return static_cast<double>(v); }

// Number of cells summed by PyTorch's adaptive average pooling windows along one axis.
int64_t AdaptiveWindowCells(int64_t in, int64_t out) {
  int64_t cells = 0;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t start = (i * in) / out;                // floor(i * in / out)
    const int64_t end = ((i + 1) * in + out - 1) / out;  // ceil((i + 1) * in / out)
    cells += end - start;
  }
  return cells;
}

}  // namespace

LayerCost Conv2dCost(const std::string& name, ActivationShape input, int64_t out_channels, int kernel, int stride,
                     int padding, bool bias, bool needs_input_grad, int64_t batch, int element_bytes) {
  LayerCost l;
  l.name = name;
  l.kind = "conv2d";
  l.input = input;
  l.output = {out_channels, (input.h + 2 * padding - kernel) / stride + 1,
              (input.w + 2 * padding - kernel) / stride + 1};
  l.element_bytes = element_bytes;
  const int64_t weights = out_channels * input.c * kernel * kernel;
  l.parameters = weights + (bias ? out_channels : 0);
  const double macs = D(input.c) * kernel * kernel * D(l.output.Elements());
  const double bias_flops = bias ? D(l.output.Elements()) : 0.0;
  l.forward_flops = 2 * macs + bias_flops;
  l.backward_input_flops = needs_input_grad ? 2 * macs : 0.0;
  l.backward_weight_flops = 2 * macs + bias_flops;  // bias gradient: one add per output element
  const double e = element_bytes;
  const double weight_bytes_per_sample = e * D(l.parameters) / D(batch);
  const double in = D(input.Elements()), out = D(l.output.Elements());
  l.forward_bytes = e * (in + out) + weight_bytes_per_sample;
  // Weight gradient: read the output gradient and the saved input, write the weight gradient; the input
  // gradient (a transposed convolution): read the output gradient and the weights, write the input gradient.
  l.backward_bytes = e * (out + in) + weight_bytes_per_sample;
  if (needs_input_grad) l.backward_bytes += e * (out + in) + weight_bytes_per_sample;
  l.saves_input = true;
  return l;
}

LayerCost LinearCost(const std::string& name, int64_t in_features, int64_t out_features, bool bias,
                     bool needs_input_grad, int64_t batch, int element_bytes) {
  LayerCost l =
      Conv2dCost(name, {in_features, 1, 1}, out_features, 1, 1, 0, bias, needs_input_grad, batch, element_bytes);
  l.kind = "linear";
  return l;
}

LayerCost BatchNormCost(const std::string& name, ActivationShape shape, int64_t batch, int element_bytes) {
  LayerCost l;
  l.name = name;
  l.kind = "batchnorm";
  l.input = l.output = shape;
  l.element_bytes = element_bytes;
  l.parameters = 2 * shape.c;
  const double n = D(shape.Elements());
  l.forward_flops = 8 * n;
  l.backward_weight_flops = 3 * n;
  l.backward_input_flops = 7 * n;
  const double e = element_bytes;
  const double params_per_sample = 4.0 * D(l.parameters) / D(batch);  // gamma, beta in fp32
  l.forward_bytes = e * 2 * n + params_per_sample;
  l.backward_bytes = e * 3 * n + params_per_sample;  // read dy and x, write dx; write d gamma, d beta
  l.saves_input = true;
  return l;
}

LayerCost ReluCost(const std::string& name, ActivationShape shape, int element_bytes) {
  LayerCost l;
  l.name = name;
  l.kind = "relu";
  l.input = l.output = shape;
  l.element_bytes = element_bytes;
  const double n = D(shape.Elements());
  l.forward_flops = n;
  l.backward_input_flops = n;
  l.forward_bytes = element_bytes * 2 * n;
  l.backward_bytes = element_bytes * 3 * n;  // read dy and the output, write dx
  l.saves_output = true;
  l.saved_elements = shape.Elements();
  return l;
}

LayerCost MaxPoolCost(const std::string& name, ActivationShape input, int kernel, int element_bytes) {
  LayerCost l;
  l.name = name;
  l.kind = "maxpool";
  l.input = input;
  l.output = {input.c, input.h / kernel, input.w / kernel};
  l.element_bytes = element_bytes;
  const double in = D(input.Elements()), out = D(l.output.Elements());
  l.forward_flops = (kernel * kernel - 1) * out;
  l.forward_bytes = element_bytes * (in + out) + 8 * out;   // writes int64 indices
  l.backward_bytes = element_bytes * (out + in) + 8 * out;  // reads dy and indices, writes the whole dx
  l.saves_input = true;
  l.saved_index_elements = l.output.Elements();
  return l;
}

LayerCost AdaptiveAvgPoolCost(const std::string& name, ActivationShape input, int64_t out_h, int64_t out_w,
                              int element_bytes) {
  LayerCost l;
  l.name = name;
  l.kind = "adaptive_avgpool";
  l.input = input;
  l.output = {input.c, out_h, out_w};
  l.element_bytes = element_bytes;
  // Each output sums its window (cells - 1 adds) and divides once: `cells` FLOPs; the windows' cells over the
  // grid are the product of the per-axis sums.
  const double cells = D(input.c) * D(AdaptiveWindowCells(input.h, out_h)) * D(AdaptiveWindowCells(input.w, out_w));
  l.forward_flops = cells;
  l.backward_input_flops = cells;
  const double in = D(input.Elements()), out = D(l.output.Elements());
  l.forward_bytes = element_bytes * (in + out);
  l.backward_bytes = element_bytes * (out + in);
  l.saves_input = true;
  return l;
}

LayerCost CrossEntropyCost(const std::string& name, int64_t classes) {
  LayerCost l;
  l.name = name;
  l.kind = "cross_entropy";
  l.input = {classes, 1, 1};
  l.output = {1, 1, 1};
  l.element_bytes = 4;
  const double c = D(classes);
  l.forward_flops = 5 * c + 2;
  l.backward_input_flops = 4 * c;
  l.forward_bytes = 4 * (c + c) + 8 + 4;  // read logits, write log-softmax, read the label, write the loss term
  l.backward_bytes = 4 * 3 * c;           // read the gradient and the saved log-softmax, write d logits
  l.saves_output = true;
  l.saved_elements = classes;  // the log-softmax
  return l;
}

namespace {
template <typename PerLayer>
double SumOverLayers(const std::vector<LayerCost>& layers, PerLayer per_layer) {
  double sum = 0;
  for (const LayerCost& l : layers) sum += per_layer(l);
  return sum;
}
}  // namespace

double ModelCost::ForwardFlops() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.forward_flops; });
}
double ModelCost::BackwardInputFlops() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.backward_input_flops; });
}
double ModelCost::BackwardWeightFlops() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.backward_weight_flops; });
}
double ModelCost::ForwardBytes() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.forward_bytes; });
}
double ModelCost::TrainingBytes() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.TrainingBytes(); });
}
double ModelCost::TrainingIntensity() const {
  const double bytes = TrainingBytes();
  return bytes > 0 ? TrainingFlops() / bytes : 0.0;
}
double ModelCost::SavedBytes() const {
  return SumOverLayers(layers, [](const LayerCost& l) { return l.SavedBytes(); });
}

ModelCost CountConvNetCost(const entries::ModelSpec& spec, int side, int64_t batch, const std::string& precision) {
  constexpr int kGrid = 7;  // the head's 7x7 convolution covers a 7x7 grid (see convnet.cpp)
  ModelCost m;
  m.side = side;
  m.batch = batch;
  m.element_bytes = precision == "bf16" ? 2 : 4;
  const int e = m.element_bytes;
  m.input_elements = int64_t{side} * side;
  auto& L = m.layers;
  L.push_back(Conv2dCost("conv1", {1, side, side}, spec.conv1_channels, 3, 1, 1, false, false, batch, e));
  L.push_back(BatchNormCost("bn1", L.back().output, batch, e));
  L.push_back(ReluCost("relu1", L.back().output, e));
  L.push_back(MaxPoolCost("pool1", L.back().output, 2, e));
  L.push_back(Conv2dCost("conv2", L.back().output, spec.conv2_channels, 3, 1, 1, false, true, batch, e));
  L.push_back(BatchNormCost("bn2", L.back().output, batch, e));
  L.push_back(ReluCost("relu2", L.back().output, e));
  L.push_back(MaxPoolCost("pool2", L.back().output, 2, e));
  if (L.back().output.h != kGrid || L.back().output.w != kGrid) {
    L.push_back(AdaptiveAvgPoolCost("resample", L.back().output, kGrid, kGrid, e));
  }
  L.push_back(Conv2dCost("head", L.back().output, spec.head_units, kGrid, 1, 0, true, true, batch, e));
  L.push_back(ReluCost("relu3", L.back().output, e));
  L.push_back(LinearCost("out", spec.head_units, entries::kNumClasses, true, true, batch, e));
  L.push_back(CrossEntropyCost("loss", entries::kNumClasses));
  // A layer's output stays alive until backward when the next layer saves its input (the model's own input
  // is the input batch, counted there).
  for (size_t i = 0; i + 1 < L.size(); ++i) {
    if (L[i + 1].saves_input && !L[i].saves_output) L[i].saved_elements = L[i].output.Elements();
  }
  for (const LayerCost& l : L) m.parameters += l.parameters;
  return m;
}

double SgdFlopsPerStep(int64_t parameters, const entries::Recipe& recipe) {
  double per_parameter = 2;  // p -= lr * g
  if (recipe.weight_decay != 0) per_parameter += 2;
  if (recipe.momentum != 0) per_parameter += 2;
  if (recipe.momentum != 0 && recipe.nesterov) per_parameter += 2;
  return per_parameter * D(parameters);
}

MemoryBreakdown CountTrainingMemory(const ModelCost& cost, const entries::Recipe& recipe, int64_t dataset_images) {
  MemoryBreakdown m;
  const double batch = D(cost.batch);
  m.parameters = 4.0 * D(cost.parameters);  // fp32 master weights, also under bf16 autocast
  m.gradients = m.parameters;
  m.optimizer_state = recipe.momentum != 0 ? m.parameters : 0.0;  // one momentum buffer per parameter
  m.activations = batch * cost.SavedBytes();
  double widest = 0;  // the gradient flowing into and out of one layer at once
  for (const LayerCost& l : cost.layers) {
    widest = std::max(widest, D(l.element_bytes) * D(l.input.Elements() + l.output.Elements()));
  }
  m.temporaries = batch * widest;
  if (cost.element_bytes == 2) m.temporaries += 2.0 * D(cost.parameters);  // autocast's bf16 weight copies
  m.input_batch = batch * (4.0 * D(cost.input_elements) + 8.0);            // float images + int64 labels
  m.dataset = 4.0 * D(dataset_images) * D(cost.input_elements);
  return m;
}

nlohmann::json LayerCostToJson(const LayerCost& l) {
  return {{"name", l.name},
          {"kind", l.kind},
          {"input", {l.input.c, l.input.h, l.input.w}},
          {"output", {l.output.c, l.output.h, l.output.w}},
          {"parameters", l.parameters},
          {"forward_flops", l.forward_flops},
          {"backward_input_flops", l.backward_input_flops},
          {"backward_weight_flops", l.backward_weight_flops},
          {"forward_bytes", l.forward_bytes},
          {"backward_bytes", l.backward_bytes},
          {"saved_bytes", l.SavedBytes()}};
}

nlohmann::json ModelCostToJson(const ModelCost& m) {
  nlohmann::json layers = nlohmann::json::array();
  for (const LayerCost& l : m.layers) layers.push_back(LayerCostToJson(l));
  return {{"side", m.side},
          {"batch", m.batch},
          {"element_bytes", m.element_bytes},
          {"parameters", m.parameters},
          {"forward_flops", m.ForwardFlops()},
          {"backward_input_flops", m.BackwardInputFlops()},
          {"backward_weight_flops", m.BackwardWeightFlops()},
          {"training_flops", m.TrainingFlops()},
          {"forward_bytes", m.ForwardBytes()},
          {"training_bytes", m.TrainingBytes()},
          {"intensity", m.TrainingIntensity()},
          {"saved_bytes", m.SavedBytes()},
          {"layers", layers}};
}

nlohmann::json MemoryBreakdownToJson(const MemoryBreakdown& m) {
  return {{"parameters", m.parameters},   {"gradients", m.gradients},     {"optimizer_state", m.optimizer_state},
          {"activations", m.activations}, {"temporaries", m.temporaries}, {"input_batch", m.input_batch},
          {"dataset", m.dataset},         {"steady", m.Steady()},         {"peak", m.Peak()}};
}

}  // namespace evalsuite::training
