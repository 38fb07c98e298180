// A loaded image classifier seen as "floats in, best-k output indices out", so that only one translation unit
// (torchscript_classifier.cpp) includes LibTorch. Not thread-safe: one thread runs inference.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace evalsuite::generalization {

constexpr int kTopK = 5;  // top-1 and top-5 are both read from the best five outputs

class Classifier {
 public:
  virtual ~Classifier() = default;
  virtual int num_outputs() const = 0;
  // `batch` holds n images of input_shape (C, H, W) floats each, contiguous. Writes n rows of kTopK output
  // indices, best first; rows are padded with -1 when the model has fewer than kTopK outputs. When `scores` is
  // given, also their softmax probabilities (0 for padding). Throws evalsuite::Error naming the model's file.
  virtual void TopK(const float* batch, int n, int32_t* top, float* scores = nullptr) = 0;
};

struct ClassifierOptions {
  // torch::jit::optimize_for_inference: freeze, fold batch norms into convolutions, use oneDNN kernels.
  // Kept only when its logits match the plain module's (1e-3 relative) on a fixed input; otherwise, or when
  // the pass rejects a model, the plain module is used and `note` says why.
  bool optimize = true;
};

struct LoadedClassifier {
  std::unique_ptr<Classifier> classifier;
  std::string note;  // "optimized for inference", or why not
};

// Loads a TorchScript file and runs it once on zeros of shape [1, C, H, W] to learn the output size and fail
// early on a wrong input shape. Throws InputError naming the file (not TorchScript, wrong input shape, output
// not [N, K]).
LoadedClassifier LoadTorchScriptClassifier(const std::filesystem::path& file, const std::vector<int64_t>& input_shape,
                                           const ClassifierOptions& options = {});

// LibTorch's intra-op thread count (Debian's OpenMP build starts at 1 unless told).
void SetInferenceThreads(int threads);
std::string LibTorchVersion();

}  // namespace evalsuite::generalization
