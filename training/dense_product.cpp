#include "training/dense_product.h"

#include <oneapi/dnnl/dnnl.h>

namespace evalsuite::training {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

// C[m x n] = op(A) op(B) (+ C when accumulate), all row-major float, through oneDNN (which threads with OpenMP,
// as LibTorch does, so torch::set_num_threads governs both).
void Sgemm(char trans_a, char trans_b, int64_t m, int64_t n, int64_t k, const torch::Tensor& a, int64_t lda,
           const torch::Tensor& b, int64_t ldb, bool accumulate, torch::Tensor& c) {
  const dnnl_status_t status = dnnl_sgemm(trans_a, trans_b, m, n, k, 1.0F, a.data_ptr<float>(), lda,
                                          b.data_ptr<float>(), ldb, accumulate ? 1.0F : 0.0F, c.data_ptr<float>(), n);
  TORCH_CHECK(status == dnnl_success, "oneDNN's sgemm failed with status ", static_cast<int>(status));
}

class DenseProductFunction : public torch::autograd::Function<DenseProductFunction> {
 public:
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x_in, const torch::Tensor& weight_in,
                               const torch::Tensor& bias) {
    const torch::Tensor x = x_in.contiguous();
    const torch::Tensor weight = weight_in.contiguous();
    ctx->save_for_backward({x, weight});
    const int64_t rows = x.size(0), outputs = weight.size(0), inputs = x.size(1);
    torch::Tensor y = bias.reshape({1, outputs}).expand({rows, outputs}).contiguous();
    Sgemm('N', 'T', rows, outputs, inputs, x, inputs, weight, inputs, /*accumulate=*/true, y);
    return y;
  }

  static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const torch::Tensor& x = saved[0];
    const torch::Tensor& weight = saved[1];
    const torch::Tensor dy = grads[0].contiguous();
    const int64_t rows = x.size(0), outputs = weight.size(0), inputs = x.size(1);
    torch::Tensor dx, dweight, dbias;
    if (ctx->needs_input_grad(0)) {
      dx = torch::empty({rows, inputs}, x.options());
      Sgemm('N', 'N', rows, inputs, outputs, dy, outputs, weight, inputs, false, dx);
    }
    if (ctx->needs_input_grad(1)) {
      dweight = torch::empty({outputs, inputs}, weight.options());
      Sgemm('T', 'N', outputs, inputs, rows, dy, outputs, x, inputs, false, dweight);
    }
    if (ctx->needs_input_grad(2)) dbias = dy.sum(0);
    return {dx, dweight, dbias};
  }
};

}  // namespace

torch::Tensor DenseProduct(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) {
  TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && bias.dim() == 1, "DenseProduct: x [N, K], weight [M, K], bias [M]");
  TORCH_CHECK(x.size(1) == weight.size(1) && bias.size(0) == weight.size(0), "DenseProduct: shapes ", x.sizes(), " ",
              weight.sizes(), " ", bias.sizes(), " do not match");
  TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                  bias.scalar_type() == torch::kFloat32 && x.device().is_cpu() && weight.device().is_cpu(),
              "DenseProduct: float tensors on the CPU only");
  // oneDNN rejects empty products; a batch of nothing needs no product.
  if (x.size(0) == 0 || x.size(1) == 0 || weight.size(0) == 0) return torch::addmm(bias, x, weight.t());
  return DenseProductFunction::apply(x, weight, bias);
}

std::string OneDnnVersion() {
  const dnnl_version_t* version = dnnl_version();
  return std::to_string(version->major) + "." + std::to_string(version->minor) + "." + std::to_string(version->patch);
}

}  // namespace evalsuite::training
