// The built-in model's memory format: after UseChannelsLast every 4-d weight, conv1's single-input-channel
// one included, has channels-last strides, so activations stay channels-last through the network (oneDNN's
// fast path) instead of flipping between layouts at every layer.
#include "training/convnet.h"

#include <gtest/gtest.h>

#include "entries/builtin_entries.h"

namespace evalsuite::training {
namespace {

bool HasChannelsLastStrides(const torch::Tensor& t) {
  // Explicit strides, not is_contiguous(ChannelsLast): with one channel both layouts count as contiguous.
  const torch::Tensor reference = torch::empty(t.sizes(), t.options().memory_format(at::MemoryFormat::ChannelsLast));
  return t.strides() == reference.strides();
}

TEST(ConvNet, UseChannelsLastGivesEveryConvolutionWeightChannelsLastStrides) {
  torch::manual_seed(1);
  ConvNet model(entries::ModelSpec{16, 32, 128});
  const torch::Tensor conv1_before = model->conv1->weight.detach().clone();
  UseChannelsLast(model);
  EXPECT_TRUE(HasChannelsLastStrides(model->conv1->weight)) << model->conv1->weight.strides();
  EXPECT_TRUE(HasChannelsLastStrides(model->conv2->weight));
  EXPECT_TRUE(HasChannelsLastStrides(model->head->weight));
  EXPECT_TRUE(model->conv1->weight.equal(conv1_before));  // same values, other layout
  EXPECT_TRUE(model->conv1->weight.requires_grad());
}

TEST(ConvNet, ActivationsStayChannelsLastThroughTheFirstBlock) {
  torch::manual_seed(2);
  ConvNet model(entries::ModelSpec{16, 32, 128});
  UseChannelsLast(model);
  model->train();
  const torch::Tensor x = torch::randn({8, 1, 28, 28}).contiguous(at::MemoryFormat::ChannelsLast);
  const torch::Tensor conv1 = model->conv1->forward(x);
  EXPECT_TRUE(conv1.is_contiguous(at::MemoryFormat::ChannelsLast)) << conv1.strides();
  EXPECT_FALSE(conv1.is_contiguous()) << "conv1 fell back to NCHW";
  const torch::Tensor logits = model->forward(x);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{8, 10}));
  logits.sum().backward();
  EXPECT_TRUE(model->conv1->weight.grad().defined());
}

}  // namespace
}  // namespace evalsuite::training
