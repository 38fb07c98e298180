// FLOP, byte and memory counts of the built-in model (training/model_cost.h): each layer kind against
// hand-computed values, every built-in entry's whole model against an independent Python count from the same
// shapes, and the memory breakdown of a tiny model against a hand count and the tensors LibTorch really holds.
#include "training/model_cost.h"

#include <gtest/gtest.h>

#include "training/convnet.h"

namespace evalsuite::training {
namespace {

TEST(LayerCost, Conv2dCountsForwardBothGradientsAndTraffic) {
  // 3x8x8 input, 4 filters 3x3, padding 1: 4x8x8 = 256 outputs, 3*9 = 27 MACs each = 6912 MACs.
  const LayerCost c = Conv2dCost("c", {3, 8, 8}, 4, 3, 1, 1, false, true, 2, 4);
  EXPECT_EQ(c.output.c, 4);
  EXPECT_EQ(c.output.h, 8);
  EXPECT_EQ(c.parameters, 108);
  EXPECT_DOUBLE_EQ(c.forward_flops, 13824);
  EXPECT_DOUBLE_EQ(c.backward_input_flops, 13824);
  EXPECT_DOUBLE_EQ(c.backward_weight_flops, 13824);
  // 4 * (192 in + 256 out) + 4 * 108 weights / batch 2
  EXPECT_DOUBLE_EQ(c.forward_bytes, 2008);
  EXPECT_DOUBLE_EQ(c.backward_bytes, 4016);
  EXPECT_TRUE(c.saves_input);
}

TEST(LayerCost, FirstConvolutionNeedsNoInputGradient) {
  const LayerCost c = Conv2dCost("c", {3, 8, 8}, 4, 3, 1, 1, false, false, 2, 4);
  EXPECT_DOUBLE_EQ(c.backward_input_flops, 0);
  EXPECT_DOUBLE_EQ(c.backward_weight_flops, 13824);
  EXPECT_DOUBLE_EQ(c.backward_bytes, 2008);
}

TEST(LayerCost, Conv2dStrideAndBias) {
  // (8 - 3) / 2 + 1 = 3: 4x3x3 = 36 outputs of 27 MACs, plus one bias add each.
  const LayerCost c = Conv2dCost("c", {3, 8, 8}, 4, 3, 2, 0, true, true, 1, 2);
  EXPECT_EQ(c.output.h, 3);
  EXPECT_EQ(c.parameters, 112);
  EXPECT_DOUBLE_EQ(c.forward_flops, 2 * 27 * 36 + 36);
  EXPECT_DOUBLE_EQ(c.backward_weight_flops, 2 * 27 * 36 + 36);
  EXPECT_DOUBLE_EQ(c.backward_input_flops, 2 * 27 * 36);
  EXPECT_DOUBLE_EQ(c.forward_bytes, 2 * (192 + 36) + 2 * 112);
}

TEST(LayerCost, Linear) {
  const LayerCost l = LinearCost("out", 128, 10, true, true, 128, 4);
  EXPECT_EQ(l.kind, "linear");
  EXPECT_EQ(l.parameters, 1290);
  EXPECT_DOUBLE_EQ(l.forward_flops, 2570);
  EXPECT_DOUBLE_EQ(l.backward_weight_flops, 2570);
  EXPECT_DOUBLE_EQ(l.backward_input_flops, 2560);
  EXPECT_DOUBLE_EQ(l.forward_bytes, 4 * 138 + 4 * 1290 / 128.0);
}

TEST(LayerCost, BatchNorm) {
  const LayerCost b = BatchNormCost("bn", {16, 28, 28}, 128, 4);  // 12544 elements
  EXPECT_EQ(b.parameters, 32);
  EXPECT_DOUBLE_EQ(b.forward_flops, 8 * 12544);
  EXPECT_DOUBLE_EQ(b.backward_weight_flops, 3 * 12544);
  EXPECT_DOUBLE_EQ(b.backward_input_flops, 7 * 12544);
  EXPECT_DOUBLE_EQ(b.forward_bytes, 100352 + 1);  // read + write, gamma and beta (128 B) over 128 samples
  EXPECT_DOUBLE_EQ(b.backward_bytes, 150528 + 1);
}

TEST(LayerCost, ReluSavesItsOutput) {
  const LayerCost r = ReluCost("r", {2, 3, 3}, 4);
  EXPECT_DOUBLE_EQ(r.forward_flops, 18);
  EXPECT_DOUBLE_EQ(r.backward_input_flops, 18);
  EXPECT_DOUBLE_EQ(r.forward_bytes, 144);
  EXPECT_DOUBLE_EQ(r.backward_bytes, 216);
  EXPECT_EQ(r.saved_elements, 18);
  EXPECT_DOUBLE_EQ(r.SavedBytes(), 72);
}

TEST(LayerCost, MaxPoolComparesAndKeepsIndices) {
  const LayerCost p = MaxPoolCost("p", {2, 4, 4}, 2, 4);
  EXPECT_EQ(p.output.Elements(), 8);
  EXPECT_DOUBLE_EQ(p.forward_flops, 24);  // 3 comparisons per 2x2 window
  EXPECT_DOUBLE_EQ(p.BackwardFlops(), 0);
  EXPECT_DOUBLE_EQ(p.forward_bytes, 4 * (32 + 8) + 8 * 8);
  EXPECT_EQ(p.saved_index_elements, 8);
  EXPECT_EQ(MaxPoolCost("p", {1, 7, 7}, 2, 4).output.h, 3);  // floor, as PyTorch's default
}

TEST(LayerCost, AdaptiveAvgPoolUsesPyTorchWindows) {
  // 3 -> 7 per axis: windows [0,1) [0,1) [0,2) [1,2) [1,3) [2,3) [2,3): 9 cells; 9 * 9 over the grid.
  const LayerCost a = AdaptiveAvgPoolCost("a", {1, 3, 3}, 7, 7, 4);
  EXPECT_DOUBLE_EQ(a.forward_flops, 81);
  EXPECT_DOUBLE_EQ(a.backward_input_flops, 81);
  EXPECT_DOUBLE_EQ(AdaptiveAvgPoolCost("a", {2, 7, 7}, 7, 7, 4).forward_flops, 98);  // identity: 1 per output
}

TEST(LayerCost, CrossEntropy) {
  const LayerCost l = CrossEntropyCost("loss", 10);
  EXPECT_DOUBLE_EQ(l.forward_flops, 52);
  EXPECT_DOUBLE_EQ(l.backward_input_flops, 40);
  EXPECT_EQ(l.saved_elements, 10);
}

// Expected values from the independent count (the model rebuilt in PyTorch, shapes from forward hooks,
// formulas written again in Python; forward convolution/linear FLOPs from torch.profiler(with_flops=True)):
//   /usr/bin/python3 tests/training/model_cost_oracle.py
struct OracleLine {
  const char* entry;
  int side;
  double forward_flops;
  double training_flops;
  double training_bytes;
};
constexpr OracleLine kOracle[] = {
    {"baseline", 28, 2619870, 7473552, 1279759.938},
    {"cyclic-lr", 28, 2619870, 7473552, 1279759.938},
    {"large-batch", 28, 2619870, 7473552, 1262788.492},
    {"progressive-resize", 14, 960462, 2782656, 365423.938},
    {"progressive-resize", 28, 2619870, 7473552, 1279759.938},
    {"bf16", 28, 2619870, 7473552, 677620.969},
    {"fast", 28, 2619870, 7473552, 672770.484},
};

TEST(ModelCost, EveryBuiltinEntryMatchesTheIndependentPythonCount) {
  for (const OracleLine& o : kOracle) {
    const entries::Recipe& r = entries::BuiltinEntryOrThrow(o.entry).recipe;
    const ModelCost m = CountConvNetCost(r.model, o.side, r.batch_size, r.precision);
    SCOPED_TRACE(std::string(o.entry) + " side " + std::to_string(o.side));
    EXPECT_NEAR(m.ForwardFlops(), o.forward_flops, 0.01 * o.forward_flops);
    EXPECT_NEAR(m.TrainingFlops(), o.training_flops, 0.01 * o.training_flops);
    EXPECT_NEAR(m.TrainingBytes(), o.training_bytes, 0.01 * o.training_bytes);
    // The same conventions give the same numbers, not just within 1%.
    EXPECT_NEAR(m.TrainingFlops(), o.training_flops, 1);
  }
}

TEST(ModelCost, ForwardMatrixFlopsEqualTorchProfilersCount) {
  // torch.profiler(with_flops=True) counts aten::conv2d and aten::addmm: 2,436,096 at 28x28, 912,000 at 14x14,
  // products only; the count here adds the 128 + 10 bias additions of the head and the output layer.
  for (auto [side, expected] : {std::pair{28, 2436096.0}, std::pair{14, 912000.0}}) {
    const ModelCost m = CountConvNetCost(entries::ModelSpec{16, 32, 128}, side, 128, "fp32");
    double matmul = 0;
    for (const LayerCost& l : m.layers) {
      if (l.kind == "conv2d" || l.kind == "linear") matmul += l.forward_flops;
    }
    EXPECT_DOUBLE_EQ(matmul - 138, expected) << side;
  }
}

TEST(ModelCost, SavedActivationsMatchAutogradsSavedTensors) {
  // saved_tensors_hooks in the same script: 207,632.5 B per fp32 sample at 28x28 (57,424.5 at 14x14), which
  // also holds the int64 label (8 B, counted in the input batch here) and batch norm's per-batch statistics
  // and running buffers (about 100 B per sample at batch 8): within 1%.
  const ModelCost m28 = CountConvNetCost(entries::ModelSpec{16, 32, 128}, 28, 128, "fp32");
  EXPECT_NEAR(m28.SavedBytes(), 207632.5, 0.01 * 207632.5);
  const ModelCost m14 = CountConvNetCost(entries::ModelSpec{16, 32, 128}, 14, 128, "fp32");
  EXPECT_NEAR(m14.SavedBytes(), 57424.5, 0.01 * 57424.5);
}

TEST(MemoryBreakdown, TinyModelEqualsTheHandCount) {
  // ModelSpec {2, 4, 8}, 28x28, batch 4, fp32, SGD momentum: 1768 parameters (conv1 18, bn1 4, conv2 72, bn2 8,
  // head 8*4*49+8 = 1576, out 90). Saved per sample: conv1 out 1568 + relu1 1568 + pool1 392 (+392 int64) +
  // conv2 out 784 + relu2 784 + pool2 196 (+196 int64) floats, relu3 8, log-softmax 10 = 25,944 B.
  // Widest layer in+out: bn1 / relu1 with 2 * 1568 floats = 12,544 B.
  entries::Recipe recipe;
  recipe.model = {2, 4, 8};
  recipe.batch_size = 4;
  const ModelCost cost = CountConvNetCost(recipe.model, 28, 4, "fp32");
  EXPECT_EQ(cost.parameters, 1768);
  const MemoryBreakdown m = CountTrainingMemory(cost, recipe, 100);
  EXPECT_DOUBLE_EQ(m.parameters, 7072);
  EXPECT_DOUBLE_EQ(m.gradients, 7072);
  EXPECT_DOUBLE_EQ(m.optimizer_state, 7072);
  EXPECT_DOUBLE_EQ(m.activations, 4 * 25944);
  EXPECT_DOUBLE_EQ(m.temporaries, 4 * 12544);
  EXPECT_DOUBLE_EQ(m.input_batch, 4 * (784 * 4 + 8));
  EXPECT_DOUBLE_EQ(m.dataset, 100 * 784 * 4);
  EXPECT_DOUBLE_EQ(m.Steady(), 3 * 7072 + 313600);
  EXPECT_DOUBLE_EQ(m.Peak(), 3 * 7072 + 313600 + 103776 + 50176 + 12576);
}

TEST(MemoryBreakdown, ParametersGradientsAndMomentumMatchTheTensorsLibTorchHolds) {
  entries::Recipe recipe;
  recipe.model = {2, 4, 8};
  recipe.batch_size = 4;
  torch::manual_seed(3);
  ConvNet model(recipe.model);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const torch::Tensor x = torch::randn({4, 1, 28, 28});
  torch::nn::functional::cross_entropy(model->forward(x), torch::tensor({1, 2, 3, 4})).backward();
  optimizer.step();
  double params = 0, grads = 0, momentum = 0;
  for (const torch::Tensor& p : model->parameters()) {
    params += static_cast<double>(p.nbytes());
    grads += static_cast<double>(p.grad().nbytes());
  }
  for (const auto& [key, state] : optimizer.state()) {
    momentum += static_cast<double>(static_cast<torch::optim::SGDParamState&>(*state).momentum_buffer().nbytes());
  }
  const MemoryBreakdown m = CountTrainingMemory(CountConvNetCost(recipe.model, 28, 4, "fp32"), recipe, 0);
  EXPECT_DOUBLE_EQ(m.parameters, params);
  EXPECT_DOUBLE_EQ(m.gradients, grads);
  EXPECT_DOUBLE_EQ(m.optimizer_state, momentum);
}

}  // namespace
}  // namespace evalsuite::training
