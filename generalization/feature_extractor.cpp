#include "generalization/feature_extractor.h"

#include <torch/script.h>
#include <torch/torch.h>

#include <algorithm>

#include "common/error.h"
#include "common/onednn_isa_cap.h"

namespace evalsuite::generalization {
namespace {

std::string Short(const c10::Error& e) {
  const std::string text = e.what_without_backtrace();
  return text.substr(0, text.find('\n'));
}

torch::Tensor FeaturesOf(const torch::jit::IValue& output, const std::string& where) {
  if (!output.isTensor()) throw InputError(where, "forward() did not return a tensor");
  torch::Tensor t = output.toTensor();
  if (t.dim() == 4 && t.size(2) == 1 && t.size(3) == 1) t = t.flatten(1);
  if (t.dim() != 2) throw InputError(where, "forward() returned shape " + c10::str(t.sizes()) + ", expected [N, D]");
  return t.to(torch::kFloat32);
}

class TorchScriptFeatureExtractor : public FeatureExtractor {
 public:
  TorchScriptFeatureExtractor(torch::jit::Module module, std::vector<int64_t> input_shape, int dimensions,
                              std::string where)
      : module_(std::move(module)),
        input_shape_(std::move(input_shape)),
        dimensions_(dimensions),
        where_(std::move(where)) {}
  int dimensions() const override { return dimensions_; }
  void Embed(const float* batch, int n, float* out) override {
    std::vector<int64_t> shape = {n};
    shape.insert(shape.end(), input_shape_.begin(), input_shape_.end());
    c10::InferenceMode guard;
    const torch::Tensor input = torch::from_blob(const_cast<float*>(batch), shape, torch::kFloat32);
    torch::Tensor features;
    try {
      features = FeaturesOf(module_.forward({input}), where_);
    } catch (const c10::Error& e) {
      throw InputError(where_, "forward() failed: " + Short(e));
    } catch (const std::runtime_error& e) {  // the TorchScript interpreter rethrows as std::runtime_error
      if (dynamic_cast<const Error*>(&e) != nullptr) throw;
      throw InputError(where_, std::string("forward() failed: ") + e.what());
    }
    features =
        torch::nn::functional::normalize(features, torch::nn::functional::NormalizeFuncOptions().dim(1)).contiguous();
    std::copy_n(features.data_ptr<float>(), static_cast<size_t>(n) * dimensions_, out);
  }

 private:
  torch::jit::Module module_;
  std::vector<int64_t> input_shape_;
  int dimensions_;
  std::string where_;
};

}  // namespace

std::unique_ptr<FeatureExtractor> LoadTorchScriptFeatureExtractor(const std::filesystem::path& file,
                                                                  const std::vector<int64_t>& input_shape) {
  PrepareOneDnnForThisMachine();
  const std::string where = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw IoError(where, "feature model file not found");
  torch::jit::Module module;
  try {
    module = torch::jit::load(file.string(), torch::kCPU);
  } catch (const c10::Error& e) {
    throw InputError(where, "not a TorchScript model (save it with torch.jit.save): " + Short(e));
  }
  module.eval();
  std::vector<int64_t> probe = {1};
  probe.insert(probe.end(), input_shape.begin(), input_shape.end());
  int dimensions = 0;
  try {
    c10::InferenceMode guard;
    dimensions = static_cast<int>(FeaturesOf(module.forward({torch::zeros(probe)}), where).size(1));
  } catch (const c10::Error& e) {
    throw InputError(where,
                     "forward() failed on an input of shape " + c10::str(c10::IntArrayRef(probe)) + ": " + Short(e));
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const Error*>(&e) != nullptr) throw;
    throw InputError(where, std::string("forward() failed: ") + e.what());
  }
  if (dimensions < 1) throw InputError(where, "forward() returned no features");
  return std::make_unique<TorchScriptFeatureExtractor>(std::move(module), input_shape, dimensions, where);
}

std::vector<std::vector<Neighbour>> NearestByCosine(const std::vector<float>& queries, const std::vector<float>& keys,
                                                    int d, int k, float min_similarity) {
  const int64_t n = d > 0 ? static_cast<int64_t>(queries.size()) / d : 0;
  const int64_t m = d > 0 ? static_cast<int64_t>(keys.size()) / d : 0;
  std::vector<std::vector<Neighbour>> result(static_cast<size_t>(n));
  if (n == 0 || m == 0 || k < 1) return result;
  c10::InferenceMode guard;
  const torch::Tensor q = torch::from_blob(const_cast<float*>(queries.data()), {n, d}, torch::kFloat32);
  constexpr int64_t kBlock = 8192;  // keys per product: 5,000 x 8,192 floats = 160 MB at most
  for (int64_t start = 0; start < m; start += kBlock) {
    const int64_t count = std::min(kBlock, m - start);
    const torch::Tensor block =
        torch::from_blob(const_cast<float*>(keys.data()) + start * d, {count, d}, torch::kFloat32);
    const torch::Tensor similarity = torch::mm(q, block.t());
    const auto [values, indices] = similarity.topk(std::min<int64_t>(k, count), 1);
    const auto v = values.accessor<float, 2>();
    const auto ix = indices.accessor<int64_t, 2>();
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < values.size(1); ++j) {
        if (v[i][j] < min_similarity) break;
        result[static_cast<size_t>(i)].push_back({static_cast<int32_t>(start + ix[i][j]), v[i][j]});
      }
    }
  }
  for (auto& row : result) {
    std::sort(row.begin(), row.end(), [](const Neighbour& a, const Neighbour& b) {
      return a.similarity != b.similarity ? a.similarity > b.similarity : a.index < b.index;
    });
    if (row.size() > static_cast<size_t>(k)) row.resize(static_cast<size_t>(k));
  }
  return result;
}

}  // namespace evalsuite::generalization
