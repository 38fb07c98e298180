// The only LibTorch translation unit of generalization (compile time: see COMMON.md).
#include <torch/script.h>
#include <torch/torch.h>

#include <algorithm>

#include "common/error.h"
#include "common/onednn_isa_cap.h"
#include "generalization/classifier.h"
#include "generalization/logits_agreement.h"

namespace evalsuite::generalization {
namespace {

// The first line of a LibTorch error: the TorchScript interpreter rethrows a model's own failure as a plain
// std::runtime_error whose what() carries the whole TorchScript traceback, the reason on its last line.
std::string FirstLine(std::string message) {
  const size_t newline = message.find('\n');
  if (newline != std::string::npos && newline > 0) message = message.substr(0, newline);
  return message;
}

std::string ShortMessage(const c10::Error& e) { return FirstLine(e.what_without_backtrace()); }

std::string ShortMessage(const std::exception& e) {
  std::string message = e.what();
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  // The interpreter's traceback ends with "RuntimeError: <reason>" (or another Python-style error name).
  const size_t last = message.rfind('\n');
  std::string reason = last == std::string::npos ? message : message.substr(last + 1);
  if (reason.empty() || reason.find("Error") == std::string::npos) return FirstLine(message);
  return reason;
}

torch::Tensor LogitsOf(const c10::IValue& output, const std::string& where) {
  if (output.isTensor()) return output.toTensor();
  if (output.isTuple() && !output.toTupleRef().elements().empty() && output.toTupleRef().elements()[0].isTensor()) {
    return output.toTupleRef().elements()[0].toTensor();
  }
  throw InputError(where, "forward() must return a tensor [N, classes] (or a tuple starting with one)");
}

class TorchScriptClassifier : public Classifier {
 public:
  TorchScriptClassifier(torch::jit::Module module, std::vector<int64_t> input_shape, int num_outputs, std::string where)
      : module_(std::move(module)),
        input_shape_(std::move(input_shape)),
        num_outputs_(num_outputs),
        where_(std::move(where)) {}

  int num_outputs() const override { return num_outputs_; }

  void TopK(const float* batch, int n, int32_t* top, float* scores) override {
    std::vector<int64_t> shape = {n};
    shape.insert(shape.end(), input_shape_.begin(), input_shape_.end());
    try {
      c10::InferenceMode guard;
      // from_blob: no copy; the pipeline keeps the buffer alive until TopK returns.
      const torch::Tensor input = torch::from_blob(const_cast<float*>(batch), shape, torch::kFloat32);
      const torch::Tensor logits = LogitsOf(module_.forward({input}), where_);
      if (logits.dim() != 2 || logits.size(0) != n || logits.size(1) != num_outputs_) {
        throw InputError(where_, "forward() returned shape " + c10::str(logits.sizes()) + " for a batch of " +
                                     std::to_string(n) + ", expected [" + std::to_string(n) + ", " +
                                     std::to_string(num_outputs_) + "]");
      }
      const int k = std::min(kTopK, num_outputs_);
      const auto [values, indices_raw] = logits.topk(k, 1);
      const torch::Tensor indices = indices_raw.to(torch::kInt32).contiguous();
      const int32_t* data = indices.data_ptr<int32_t>();
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < kTopK; ++j) top[i * kTopK + j] = j < k ? data[i * k + j] : -1;
      }
      if (scores != nullptr) {
        // Softmax probabilities of the best k: p_j = exp(l_j - logsumexp(l)).
        const torch::Tensor probabilities =
            (values.to(torch::kFloat32) - logits.to(torch::kFloat32).logsumexp(1, true)).exp().contiguous();
        const float* p = probabilities.data_ptr<float>();
        for (int i = 0; i < n; ++i) {
          for (int j = 0; j < kTopK; ++j) scores[i * kTopK + j] = j < k ? p[i * k + j] : 0.0f;
        }
      }
    } catch (const c10::Error& e) {
      throw ExternalError(where_, "inference failed: " + ShortMessage(e));
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw ExternalError(where_, "inference failed: " + ShortMessage(e));
    }
  }

 private:
  torch::jit::Module module_;
  std::vector<int64_t> input_shape_;
  int num_outputs_;
  std::string where_;
};

}  // namespace

LoadedClassifier LoadTorchScriptClassifier(const std::filesystem::path& file, const std::vector<int64_t>& input_shape,
                                           const ClassifierOptions& options) {
  PrepareOneDnnForThisMachine();  // before the model runs its first convolution (see onednn_isa_cap.h)
  const std::string where = file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw IoError(where, "model file not found");
  torch::jit::Module module;
  try {
    module = torch::jit::load(file.string(), torch::kCPU);
  } catch (const c10::Error& e) {
    throw InputError(where, "not a TorchScript model (save it with torch.jit.save): " + ShortMessage(e));
  } catch (const std::exception& e) {
    throw InputError(where, "not a TorchScript model (save it with torch.jit.save): " + ShortMessage(e));
  }
  module.eval();
  std::vector<int64_t> probe_shape = {1};
  probe_shape.insert(probe_shape.end(), input_shape.begin(), input_shape.end());
  auto probe = [&](torch::jit::Module& m) {
    c10::InferenceMode guard;
    const torch::Tensor logits = LogitsOf(m.forward({torch::zeros(probe_shape)}), where);
    if (logits.dim() != 2 || logits.size(0) != 1 || logits.size(1) < 1) {
      throw InputError(where, "forward() returned shape " + c10::str(logits.sizes()) + ", expected [N, classes]");
    }
    return static_cast<int>(logits.size(1));
  };
  int num_outputs = 0;
  try {
    num_outputs = probe(module);
  } catch (const c10::Error& e) {
    throw InputError(where, "forward() failed on an input of shape " + c10::str(c10::IntArrayRef(probe_shape)) +
                                " (does --preprocess match the model?): " + ShortMessage(e));
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {  // the interpreter rethrows a model's failure as std::runtime_error
    throw InputError(where, "forward() failed on an input of shape " + c10::str(c10::IntArrayRef(probe_shape)) +
                                " (does --preprocess match the model?): " + ShortMessage(e));
  }
  LoadedClassifier loaded;
  loaded.note = "plain TorchScript";
  if (options.optimize) {
    try {
      // The optimized module must give the same logits as the original on a fixed, input-like tensor:
      // otherwise the plain module is kept (a frozen model that disagrees would change the evaluation).
      std::vector<int64_t> check_shape = probe_shape;
      check_shape[0] = 2;
      int64_t elements = 1;
      for (int64_t d : check_shape) elements *= d;
      const torch::Tensor check = torch::sin(torch::arange(elements, torch::kFloat32) * 0.37).reshape(check_shape);
      torch::jit::Module optimized = torch::jit::optimize_for_inference(module);
      c10::InferenceMode guard;
      const torch::Tensor expected = LogitsOf(module.forward({check}), where);
      const torch::Tensor actual = LogitsOf(optimized.forward({check}), where);
      // Judged at the logits' own scale and by the classes they rank (see logits_agreement.h): an absolute floor
      // accepted anything from models whose logits are tiny (a randomly initialized mobilenet_v3_small gives
      // logits near 2e-9, and its optimized form reorders the top five).
      const auto as_vector = [](const torch::Tensor& t) {
        const torch::Tensor flat = t.to(torch::kFloat32).contiguous().view(-1);
        return std::vector<float>(flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
      };
      if (actual.sizes() == expected.sizes() && expected.dim() == 2 &&
          RewrittenLogitsAgree(as_vector(expected), as_vector(actual), expected.size(0), expected.size(1))) {
        module = std::move(optimized);
        loaded.note = "optimized for inference";
      } else {
        loaded.note = "plain TorchScript (optimize_for_inference changed the outputs)";
      }
    } catch (const std::exception& e) {
      loaded.note = "plain TorchScript (optimize_for_inference refused it)";
    }
  }
  loaded.classifier = std::make_unique<TorchScriptClassifier>(std::move(module), input_shape, num_outputs, where);
  return loaded;
}

void SetInferenceThreads(int threads) {
  PrepareOneDnnForThisMachine();  // before a model runs its first convolution (see onednn_isa_cap.h)
  if (threads > 0) torch::set_num_threads(threads);
}

std::string LibTorchVersion() { return TORCH_VERSION; }

}  // namespace evalsuite::generalization
