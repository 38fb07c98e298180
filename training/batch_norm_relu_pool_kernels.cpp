#include "training/batch_norm_relu_pool_kernels.h"

#include <cstring>

namespace evalsuite::training {
namespace {

// Four channels at a time in GCC's vector types, SSE2's width (every x86-64; an 8-wide type lowered to SSE2 halves
// ran 3x slower than this). Written out because the compiler did not vectorize the plain channel loops well at 16
// channels (trip-count and aliasing checks, scalar shuffles), which made the fused layer slower than LibTorch's three.
using Floats = float __attribute__((vector_size(16)));
using Ints = int32_t __attribute__((vector_size(16)));
constexpr int64_t kLanes = 4;

Floats Load(const float* p) {
  Floats v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
Ints LoadInts(const int32_t* p) {
  Ints v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void Store(float* p, Floats v) { std::memcpy(p, &v, sizeof v); }
void Store(int32_t* p, Ints v) { std::memcpy(p, &v, sizeof v); }
Ints SplatInt(int32_t x) { return Ints{} + x; }

// into[j] = values[4j .. 4j+3]: per-channel constants as blocks, loaded once per call of a kernel.
void LoadBlocks(const float* values, int64_t blocks, Floats* into) {
  for (int64_t j = 0; j < blocks; ++j) into[j] = Load(values + j * kLanes);
}

// into[4j + lane] += rows[j][lane]: a row's float sums added to the chunk's double ones.
void AddInDouble(const Floats* rows, int64_t blocks, double* into) {
  for (int64_t j = 0; j < blocks; ++j) {
    for (int64_t lane = 0; lane < kLanes; ++lane) into[j * kLanes + lane] += rows[j][lane];
  }
}

// Each kernel is a template on the number of 4-channel blocks (2, 4, 8, 16 as constants, so that the block loops
// unroll and the accumulators stay in registers; 0 takes it at run time).
template <int64_t kBlocks>
struct Kernels {
  static constexpr int64_t kMaxBlocks = kBlocks > 0 ? kBlocks : 128;

  static int64_t Blocks(const PoolShape& s) { return kBlocks > 0 ? kBlocks : s.c / kLanes; }

  static void AddShiftedMoments(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* reference,
                                double* sum, double* sum_sq) {
    const int64_t blocks = Blocks(s), channels = s.c;
    Floats ref[kMaxBlocks];
    LoadBlocks(reference, blocks, ref);
    for (int64_t line = first * s.h; line < last * s.h; ++line) {
      // A row of W pixels summed in float (few terms), then added in double.
      Floats row_sum[kMaxBlocks], row_sq[kMaxBlocks];
      for (int64_t j = 0; j < blocks; ++j) row_sum[j] = row_sq[j] = Floats{};
      const float* p = x + line * s.w * channels;
      for (int64_t i = 0; i < s.w; ++i, p += channels) {
        for (int64_t j = 0; j < blocks; ++j) {
          const Floats v = Load(p + j * kLanes) - ref[j];
          row_sum[j] += v;
          row_sq[j] += v * v;
        }
      }
      AddInDouble(row_sum, blocks, sum);
      AddInDouble(row_sq, blocks, sum_sq);
    }
  }

  static void NormalizeReluPool(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* scale,
                                const float* shift, float* out, int32_t* index) {
    const int64_t blocks = Blocks(s), channels = s.c;
    const int64_t ph = s.pooled_h(), pw = s.pooled_w();
    Floats sc[kMaxBlocks], sh[kMaxBlocks];
    LoadBlocks(scale, blocks, sc);
    LoadBlocks(shift, blocks, sh);
    const Ints one = SplatInt(1), two = SplatInt(2), three = SplatInt(3), inactive = SplatInt(kInactiveWindow);
    for (int64_t n = first; n < last; ++n) {
      for (int64_t oh = 0; oh < ph; ++oh) {
        for (int64_t ow = 0; ow < pw; ++ow) {
          const float* r0 = x + ((n * s.h + 2 * oh) * s.w + 2 * ow) * channels;
          const float* r2 = r0 + s.w * channels;
          const int64_t at = ((n * ph + oh) * pw + ow) * channels;
          for (int64_t j = 0; j < blocks; ++j) {
            const int64_t c = j * kLanes;
            Floats m = Load(r0 + c) * sc[j] + sh[j];
            Ints from = Ints{};
            // max_pool2d's rule: a later input wins when greater or NaN.
            auto consider = [&](const float* input, Ints position) {
              const Floats y = Load(input + c) * sc[j] + sh[j];
              const Ints take = (y > m) | (y != y);
              m = take ? y : m;
              from = take ? position : from;
            };
            consider(r0 + channels, one);
            consider(r2, two);
            consider(r2 + channels, three);
            const Ints active = (m > Floats{}) | (m != m);  // relu keeps NaN
            Store(out + at + c, active ? m : Floats{});
            Store(index + at + c, active ? from : inactive);
          }
        }
      }
    }
  }

  static void AddGradientSums(const float* x, const float* grad, const int32_t* index, const PoolShape& s,
                              int64_t first, int64_t last, const float* mean, const float* inv_std, double* sum_dy,
                              double* sum_dy_xhat) {
    const int64_t blocks = Blocks(s), channels = s.c;
    const int64_t ph = s.pooled_h(), pw = s.pooled_w();
    Floats mu[kMaxBlocks], is[kMaxBlocks];
    LoadBlocks(mean, blocks, mu);
    LoadBlocks(inv_std, blocks, is);
    const int64_t offsets[4] = {0, channels, s.w * channels, (s.w + 1) * channels};
    for (int64_t n = first; n < last; ++n) {
      for (int64_t oh = 0; oh < ph; ++oh) {
        // A row of windows summed in float, then added in double.
        Floats row_dy[kMaxBlocks], row_dy_xhat[kMaxBlocks];
        for (int64_t j = 0; j < blocks; ++j) row_dy[j] = row_dy_xhat[j] = Floats{};
        for (int64_t ow = 0; ow < pw; ++ow) {
          const float* r0 = x + ((n * s.h + 2 * oh) * s.w + 2 * ow) * channels;
          const int64_t at = ((n * ph + oh) * pw + ow) * channels;
          for (int64_t j = 0; j < blocks; ++j) {
            const int64_t c = j * kLanes;
            const Ints k = LoadInts(index + at + c);
            const Floats g = Load(grad + at + c);
            for (int32_t position = 0; position < 4; ++position) {
              const Floats dy = (k == SplatInt(position)) ? g : Floats{};
              row_dy[j] += dy;
              row_dy_xhat[j] += dy * ((Load(r0 + offsets[position] + c) - mu[j]) * is[j]);
            }
          }
        }
        AddInDouble(row_dy, blocks, sum_dy);
        AddInDouble(row_dy_xhat, blocks, sum_dy_xhat);
      }
    }
  }

  static void InputGradient(const float* x, const float* grad, const int32_t* index, const PoolShape& s, int64_t first,
                            int64_t last, const float* a, const float* b, const float* d, const float* mean,
                            float* dx) {
    const int64_t blocks = Blocks(s), channels = s.c;
    const int64_t ph = s.pooled_h(), pw = s.pooled_w();
    Floats va[kMaxBlocks], vb[kMaxBlocks], vd[kMaxBlocks], mu[kMaxBlocks];
    LoadBlocks(a, blocks, va);
    LoadBlocks(b, blocks, vb);
    LoadBlocks(d, blocks, vd);
    LoadBlocks(mean, blocks, mu);
    const int64_t offsets[4] = {0, channels, s.w * channels, (s.w + 1) * channels};
    // An input no window covers (an odd last row or column) gets no pooled gradient.
    auto uncovered = [&](int64_t at) {
      for (int64_t j = 0; j < blocks; ++j) {
        const int64_t c = at + j * kLanes;
        Store(dx + c, -vb[j] - vd[j] * (Load(x + c) - mu[j]));
      }
    };
    for (int64_t n = first; n < last; ++n) {
      for (int64_t oh = 0; oh < ph; ++oh) {
        for (int64_t ow = 0; ow < pw; ++ow) {
          const int64_t at0 = ((n * s.h + 2 * oh) * s.w + 2 * ow) * channels;
          const int64_t pooled = ((n * ph + oh) * pw + ow) * channels;
          for (int64_t j = 0; j < blocks; ++j) {
            const int64_t c = j * kLanes;
            const Ints k = LoadInts(index + pooled + c);
            const Floats g = Load(grad + pooled + c);
            for (int32_t position = 0; position < 4; ++position) {
              const int64_t at = at0 + offsets[position] + c;
              const Floats dy = (k == SplatInt(position)) ? g : Floats{};
              Store(dx + at, va[j] * dy - vb[j] - vd[j] * (Load(x + at) - mu[j]));
            }
          }
        }
      }
      if (s.w % 2 == 1) {
        for (int64_t h = 0; h < 2 * ph; ++h) uncovered(((n * s.h + h) * s.w + s.w - 1) * channels);
      }
      if (s.h % 2 == 1) {
        for (int64_t w = 0; w < s.w; ++w) uncovered(((n * s.h + s.h - 1) * s.w + w) * channels);
      }
    }
  }
};

// body(Kernels<B>{}) with B the number of 4-channel blocks when it is one of the compiled constants.
template <class Body>
void WithBlocks(int64_t channels, const Body& body) {
  switch (channels / kLanes) {
    case 2:
      return body(Kernels<2>{});
    case 4:
      return body(Kernels<4>{});
    case 8:
      return body(Kernels<8>{});
    case 16:
      return body(Kernels<16>{});
    default:
      return body(Kernels<0>{});
  }
}

}  // namespace

bool PoolKernelsTake(int64_t channels) { return channels > 0 && channels % kLanes == 0 && channels <= 128 * kLanes; }

void AddShiftedMoments(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* reference,
                       double* sum, double* sum_sq) {
  WithBlocks(s.c, [&](auto k) { k.AddShiftedMoments(x, s, first, last, reference, sum, sum_sq); });
}

void NormalizeReluPool(const float* x, const PoolShape& s, int64_t first, int64_t last, const float* scale,
                       const float* shift, float* out, int32_t* index) {
  WithBlocks(s.c, [&](auto k) { k.NormalizeReluPool(x, s, first, last, scale, shift, out, index); });
}

void AddGradientSums(const float* x, const float* grad, const int32_t* index, const PoolShape& s, int64_t first,
                     int64_t last, const float* mean, const float* inv_std, double* sum_dy, double* sum_dy_xhat) {
  WithBlocks(s.c,
             [&](auto k) { k.AddGradientSums(x, grad, index, s, first, last, mean, inv_std, sum_dy, sum_dy_xhat); });
}

void InputGradient(const float* x, const float* grad, const int32_t* index, const PoolShape& s, int64_t first,
                   int64_t last, const float* a, const float* b, const float* d, const float* mean, float* dx) {
  WithBlocks(s.c, [&](auto k) { k.InputGradient(x, grad, index, s, first, last, a, b, d, mean, dx); });
}

}  // namespace evalsuite::training
