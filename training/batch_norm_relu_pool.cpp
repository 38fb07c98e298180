#include "training/batch_norm_relu_pool.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "training/batch_norm_relu_pool_kernels.h"

namespace evalsuite::training {
namespace {

namespace F = torch::nn::functional;
using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

// Images per chunk: the unit of parallel work and of the partial sums, whose fixed order makes every sum the same
// for any thread count.
constexpr int64_t kImagesPerChunk = 8;

PoolShape ShapeOf(const torch::Tensor& x) { return {x.size(0), x.size(1), x.size(2), x.size(3)}; }

int64_t ChunkCount(int64_t images) { return (images + kImagesPerChunk - 1) / kImagesPerChunk; }

// body(first_image, end_image) for every chunk of images, spread over LibTorch's threads.
template <class Body>
void ForEachChunk(int64_t images, const Body& body) {
  at::parallel_for(0, ChunkCount(images), 1, [&](int64_t begin, int64_t end) {
    for (int64_t chunk = begin; chunk < end; ++chunk) {
      body(chunk * kImagesPerChunk, std::min(images, (chunk + 1) * kImagesPerChunk));
    }
  });
}

// body(first_image, end_image, sums) for every chunk of images, as ForEachChunk, each chunk adding into its own
// `width` doubles; returns the chunks' sums added in chunk order.
template <class Body>
std::vector<double> SumOverChunks(int64_t images, int64_t width, const Body& body) {
  std::vector<double> partial(static_cast<size_t>(ChunkCount(images) * width), 0.0);
  ForEachChunk(images, [&](int64_t first, int64_t last) {
    body(first, last, partial.data() + first / kImagesPerChunk * width);
  });
  std::vector<double> total(static_cast<size_t>(width), 0.0);
  for (size_t at = 0; at < partial.size(); at += static_cast<size_t>(width)) {
    for (size_t i = 0; i < total.size(); ++i) total[i] += partial[at + i];
  }
  return total;
}

torch::Tensor DoubleTensor(const std::vector<double>& values) {
  return torch::tensor(torch::ArrayRef<double>(values), torch::kFloat64);
}

std::vector<float> FloatsOf(const torch::Tensor& t) {
  const torch::Tensor f = t.to(torch::kFloat32).contiguous();
  return {f.data_ptr<float>(), f.data_ptr<float>() + f.numel()};
}

// The batch's per-channel mean and 1 / sqrt(biased variance + eps) (double [C] tensors), and its unbiased
// variance (for the running statistics).
struct BatchMoments {
  torch::Tensor mean, inv_std, unbiased_var;
};

BatchMoments MomentsOf(const torch::Tensor& x, double eps) {
  const PoolShape s = ShapeOf(x);
  const float* data = x.data_ptr<float>();
  const std::vector<float> reference(data, data + s.c);  // the first pixel: a value near each channel's data
  const std::vector<double> sums = SumOverChunks(s.n, 2 * s.c, [&](int64_t first, int64_t last, double* into) {
    AddShiftedMoments(data, s, first, last, reference.data(), into, into + s.c);
  });
  const auto count = static_cast<double>(s.n * s.h * s.w);
  std::vector<double> mean, inv_std, unbiased_var;
  for (int64_t c = 0; c < s.c; ++c) {
    const double shifted_mean = sums[static_cast<size_t>(c)] / count;
    const double var = std::max(0.0, sums[static_cast<size_t>(s.c + c)] / count - shifted_mean * shifted_mean);
    mean.push_back(reference[static_cast<size_t>(c)] + shifted_mean);
    inv_std.push_back(1.0 / std::sqrt(var + eps));
    unbiased_var.push_back(count > 1 ? var * count / (count - 1) : var);
  }
  return {DoubleTensor(mean), DoubleTensor(inv_std), DoubleTensor(unbiased_var)};
}

// LibTorch's three operations, where the fused one does not apply.
torch::Tensor Composed(const torch::Tensor& x, torch::nn::BatchNorm2d& bn) {
  return F::max_pool2d(torch::relu(bn(x)), F::MaxPool2dFuncOptions(2));
}

// Batch norm as x * scale + shift per channel, from the statistics it normalizes with (the batch's in training,
// the running ones in eval mode; double [C]) and its weight and bias.
struct Normalization {
  std::vector<float> scale, shift;
};

Normalization NormalizationOf(const torch::Tensor& mean, const torch::Tensor& inv_std, const torch::Tensor& weight,
                              const torch::Tensor& bias) {
  const torch::Tensor weight_double = weight.to(torch::kFloat64);
  return {FloatsOf(inv_std * weight_double), FloatsOf(bias.to(torch::kFloat64) - mean * inv_std * weight_double)};
}

// Pooled output and winner index for x normalized as x * scale + shift (float [C] each).
std::pair<torch::Tensor, torch::Tensor> Pool(const torch::Tensor& x, const Normalization& normalization) {
  const PoolShape s = ShapeOf(x);
  torch::Tensor out =
      torch::empty({s.n, s.c, s.pooled_h(), s.pooled_w()}, x.options().memory_format(at::MemoryFormat::ChannelsLast));
  torch::Tensor index = torch::empty({s.n, s.pooled_h(), s.pooled_w(), s.c}, x.options().dtype(torch::kInt32));
  const float* data = x.data_ptr<float>();
  float* pooled = out.data_ptr<float>();
  int32_t* winners = index.data_ptr<int32_t>();
  ForEachChunk(s.n, [&](int64_t first, int64_t last) {
    NormalizeReluPool(data, s, first, last, normalization.scale.data(), normalization.shift.data(), pooled, winners);
  });
  return {out, index};
}

class BatchNormReluPoolFunction : public torch::autograd::Function<BatchNormReluPoolFunction> {
 public:
  // mean and inv_std: the batch's, double [C] (the caller computed them and updated the running statistics);
  // they carry no gradient.
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& weight,
                               const torch::Tensor& bias, const torch::Tensor& mean, const torch::Tensor& inv_std) {
    auto [out, index] = Pool(x, NormalizationOf(mean, inv_std, weight, bias));
    ctx->save_for_backward({x, weight});
    ctx->saved_data["mean"] = mean;
    ctx->saved_data["inv_std"] = inv_std;
    ctx->saved_data["index"] = index;
    return out;
  }

  static tensor_list backward(AutogradContext* ctx, tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const torch::Tensor& x = saved[0];
    const torch::Tensor mean = ctx->saved_data["mean"].toTensor();
    const torch::Tensor inv_std = ctx->saved_data["inv_std"].toTensor();
    const torch::Tensor index = ctx->saved_data["index"].toTensor();
    const torch::Tensor grad = grads[0].contiguous(at::MemoryFormat::ChannelsLast);
    const PoolShape s = ShapeOf(x);
    const float* data = x.data_ptr<float>();
    const float* pooled_grad = grad.data_ptr<float>();
    const int32_t* winners = index.data_ptr<int32_t>();
    const std::vector<float> mean_f = FloatsOf(mean);
    const std::vector<float> inv_std_f = FloatsOf(inv_std);

    // Per channel: the sum of the gradient reaching batch norm's output (bias's gradient) and of it times the
    // normalized input (weight's).
    const std::vector<double> sums = SumOverChunks(s.n, 2 * s.c, [&](int64_t first, int64_t last, double* into) {
      AddGradientSums(data, pooled_grad, winners, s, first, last, mean_f.data(), inv_std_f.data(), into, into + s.c);
    });
    // dx = weight * inv_std * (dy - mean(dy) - xhat * mean(dy * xhat)), batch norm's backward:
    // dx = a * dy - b - d * (x - mean).
    const auto count = static_cast<double>(s.n * s.h * s.w);
    const torch::Tensor weight_double = saved[1].to(torch::kFloat64).contiguous();
    const double* weight = weight_double.data_ptr<double>();
    const double* inv_std_d = inv_std.data_ptr<double>();  // read directly: item() per channel costs a dispatch each
    std::vector<float> a, b, d;
    for (int64_t c = 0; c < s.c; ++c) {
      const double scale = weight[c] * inv_std_d[c];
      a.push_back(static_cast<float>(scale));
      b.push_back(static_cast<float>(scale * sums[static_cast<size_t>(c)] / count));
      d.push_back(static_cast<float>(scale * sums[static_cast<size_t>(s.c + c)] / count * inv_std_d[c]));
    }
    torch::Tensor dx = torch::empty_like(x, at::MemoryFormat::ChannelsLast);
    float* dx_data = dx.data_ptr<float>();
    ForEachChunk(s.n, [&](int64_t first, int64_t last) {
      InputGradient(data, pooled_grad, winners, s, first, last, a.data(), b.data(), d.data(), mean_f.data(), dx_data);
    });
    const torch::Tensor sum_tensor = DoubleTensor(sums).to(torch::kFloat32);
    return {dx, sum_tensor.narrow(0, s.c, s.c).clone(), sum_tensor.narrow(0, 0, s.c).clone(), torch::Tensor(),
            torch::Tensor()};
  }
};

bool FusedApplies(const torch::Tensor& x, const torch::nn::BatchNorm2dImpl& bn) {
  return x.dim() == 4 && x.scalar_type() == torch::kFloat32 && x.device().is_cpu() && x.size(2) >= 2 &&
         x.size(3) >= 2 && x.size(0) > 0 && PoolKernelsTake(x.size(1)) &&
         x.is_contiguous(at::MemoryFormat::ChannelsLast) && bn.options.affine() && bn.options.track_running_stats() &&
         bn.weight.scalar_type() == torch::kFloat32;
}

}  // namespace

torch::Tensor BatchNormReluPool(const torch::Tensor& x, torch::nn::BatchNorm2d& bn) {
  if (!FusedApplies(x, *bn)) return Composed(x, bn);
  if (bn->is_training()) {
    const BatchMoments m = MomentsOf(x, bn->options.eps());
    {  // The running statistics, as BatchNormImpl::forward and batch_norm update them.
      torch::NoGradGuard no_grad;
      bn->num_batches_tracked += 1;
      const double factor =
          bn->options.momentum().has_value() ? *bn->options.momentum() : 1.0 / bn->num_batches_tracked.item<double>();
      bn->running_mean.mul_(1.0 - factor).add_(m.mean.to(torch::kFloat32), factor);
      bn->running_var.mul_(1.0 - factor).add_(m.unbiased_var.to(torch::kFloat32), factor);
    }
    return BatchNormReluPoolFunction::apply(x, bn->weight, bn->bias, m.mean, m.inv_std);
  }
  // Eval mode: the running statistics are constants, so the backward above (the batch's) would be wrong; a
  // gradient through an eval-mode layer takes the composed operations.
  if (torch::GradMode::is_enabled() && (x.requires_grad() || bn->weight.requires_grad() || bn->bias.requires_grad())) {
    return Composed(x, bn);
  }
  const torch::Tensor inv_std = (bn->running_var.to(torch::kFloat64) + bn->options.eps()).rsqrt();
  return Pool(x, NormalizationOf(bn->running_mean.to(torch::kFloat64), inv_std, bn->weight, bn->bias)).first;
}

}  // namespace evalsuite::training
