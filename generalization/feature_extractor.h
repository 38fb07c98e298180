// A TorchScript model seen as an image embedder: floats in, one L2-normalized feature vector per image out
// (e.g. a torchvision ResNet with its classifier replaced by Identity, exported with torch.jit.save). Used by
// the near-duplicate search's feature signal; only feature_extractor.cpp includes LibTorch.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

namespace evalsuite::generalization {

class FeatureExtractor {
 public:
  virtual ~FeatureExtractor() = default;
  virtual int dimensions() const = 0;
  // `batch`: n images of the input shape, contiguous CHW floats. Writes n rows of dimensions() floats, each of
  // unit L2 norm (a zero vector stays zero).
  virtual void Embed(const float* batch, int n, float* out) = 0;
};

// Loads the model and runs it once on zeros [1, C, H, W]: forward() must return [N, D] (or [N, D, 1, 1], as a
// network cut before its flatten does). Throws InputError naming the file otherwise.
std::unique_ptr<FeatureExtractor> LoadTorchScriptFeatureExtractor(const std::filesystem::path& file,
                                                                  const std::vector<int64_t>& input_shape);

struct Neighbour {
  int32_t index;     // row of `keys`
  float similarity;  // cosine similarity, 1 for the same direction
};

// For every row of `queries` (n x d, unit rows), the keys (m x d, unit rows) with cosine similarity at least
// `min_similarity`, best first, at most `k` of them. A matrix product per block of keys (BLAS), so 5,000
// queries against 50,000 keys of 512 floats take seconds, not a pair loop.
std::vector<std::vector<Neighbour>> NearestByCosine(const std::vector<float>& queries, const std::vector<float>& keys,
                                                    int d, int k, float min_similarity);

}  // namespace evalsuite::generalization
