// The TorchScript export of the built-in model: the saved module computes what the C++ model computes (with
// the normalization moved inside), at any input size the model accepts, and `train --model-dir` writes
// at_target.pt, final.pt and model.json that agree with the run.
#include <gtest/gtest.h>

#include <fstream>

#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "tests/support/test_support.h"
#include "training/convnet.h"
#include "training/trainer.h"

namespace evalsuite::training {
namespace {

using testing::TempDir;

// A model with non-trivial batch-norm statistics, as after training.
ConvNet TrainedLookingModel() {
  torch::manual_seed(11);
  ConvNet model(entries::ModelSpec{8, 16, 32});
  torch::NoGradGuard no_grad;
  for (auto* bn : {model->bn1.get(), model->bn2.get()}) {
    bn->running_mean.uniform_(-0.5, 0.5);
    bn->running_var.uniform_(0.5, 2.0);
    bn->weight.uniform_(0.5, 1.5);
    bn->bias.uniform_(-0.2, 0.2);
  }
  UseChannelsLast(model);
  model->eval();
  return model;
}

TEST(TorchScriptExport, SavedModuleMatchesTheCppModelOnPixelInput) {
  torch::set_num_threads(1);
  ConvNet model = TrainedLookingModel();
  TempDir dir;
  SaveTorchScript(model, dir / "model.pt");
  torch::jit::Module loaded = torch::jit::load((dir / "model.pt").string());
  loaded.eval();
  torch::NoGradGuard no_grad;
  for (int side : {28, 14}) {
    const torch::Tensor pixels = torch::rand({16, 1, side, side});  // [0, 1], as consumers feed it
    const torch::Tensor normalized = (pixels - entries::kInputMean) / entries::kInputStd;
    const torch::Tensor expected = model->forward(normalized.contiguous(at::MemoryFormat::ChannelsLast));
    const torch::Tensor actual = loaded.forward({pixels}).toTensor();
    ASSERT_EQ(actual.sizes(), (std::vector<int64_t>{16, 10}));
    EXPECT_TRUE(torch::allclose(actual, expected, 1e-4, 1e-4))
        << "side " << side << ": max difference " << (actual - expected).abs().max().item<float>();
    EXPECT_TRUE(actual.argmax(1).equal(expected.argmax(1)));
  }
}

TEST(TorchScriptExport, TrainWithModelDirSavesModelsThatScoreWhatTheLogSays) {
  if (!std::filesystem::is_directory(datasets::kDefaultFashionMnistDir)) {
    GTEST_SKIP() << datasets::kDefaultFashionMnistDir << " is absent (dataset-fashion-mnist)";
  }
  const datasets::FashionMnist data = datasets::LoadFashionMnist();
  TempDir dir;
  TrainOptions options;
  options.seed = 2;
  options.threads = 1;
  options.epochs = 2;
  options.train_subset = 2000;
  options.target = 0.3;  // reached at epoch 1, so at_target.pt and final.pt differ
  options.model_dir = dir / "models";
  const TrainResult result = Train(*entries::FindBuiltinEntry("baseline"), data, options);
  ASSERT_EQ(result.run.status, analysis::EndedAs::kReached) << result.run.error;
  ASSERT_EQ(result.run.points.size(), 2u);

  std::ifstream in(dir / "models" / "model.json");
  const nlohmann::json spec = nlohmann::json::parse(in);
  EXPECT_EQ(spec["format"], "torchscript");
  EXPECT_EQ(spec["preprocess"]["size"], 28);
  EXPECT_EQ(spec["preprocess"]["grayscale"], true);
  EXPECT_DOUBLE_EQ(spec["normalization_in_model"]["mean"][0].get<double>(), entries::kInputMean);
  EXPECT_EQ(spec["classes"].size(), 10u);
  EXPECT_EQ(spec["at_target"]["epoch"], 1);
  EXPECT_EQ(spec["final"]["epoch"], 2);

  // Each saved model, fed [0, 1] pixels of the validation split, scores exactly the logged accuracy.
  const auto n = static_cast<int64_t>(data.validation.size());
  const torch::Tensor pixels =
      torch::from_blob(const_cast<uint8_t*>(data.validation.pixels.data()), {n, 1, 28, 28}, torch::kUInt8)
          .to(torch::kFloat32) /
      255.0f;
  const torch::Tensor labels =
      torch::from_blob(const_cast<uint8_t*>(data.validation.labels.data()), {n}, torch::kUInt8).to(torch::kInt64);
  torch::NoGradGuard no_grad;
  for (const char* which : {"at_target", "final"}) {
    torch::jit::Module module = torch::jit::load((dir / "models" / spec[which]["file"].get<std::string>()).string());
    const double accuracy =
        module.forward({pixels}).toTensor().argmax(1).eq(labels).to(torch::kFloat64).mean().item<double>();
    EXPECT_NEAR(accuracy, spec[which]["val_top1"].get<double>(), 2.0 / static_cast<double>(n)) << which;
  }
  EXPECT_DOUBLE_EQ(spec["final"]["val_top1"].get<double>(), result.run.points[1].metric);
}

}  // namespace
}  // namespace evalsuite::training
