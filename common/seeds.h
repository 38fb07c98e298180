// Seeds are data: every source of randomness gets its own seed derived from one recorded seed with
// SplitMix64, so runs are reproducible and no two streams share a seed. Never seed from std::random_device.
#pragma once

#include <cstdint>
#include <utility>

namespace evalsuite {

// SplitMix64 (Steele, Lea, Flood 2014; the generator java.util.SplittableRandom and xoshiro's seeding use):
// a tiny, well-mixed 64-bit generator whose output is the same on every platform, unlike std::
// distributions, whose algorithms the standard leaves to the implementation.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) without modulo bias (Lemire's multiply-shift with rejection).
  uint64_t NextBelow(uint64_t bound) {
    if (bound <= 1) return 0;
    const uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const unsigned __int128 product = static_cast<unsigned __int128>(Next()) * bound;
      if (static_cast<uint64_t>(product) >= threshold) return static_cast<uint64_t>(product >> 64);
    }
  }
  // Uniform in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// Derived seeds keep 32 bits, as the study's run seeds do, so every consumer takes them as they are: JSON
// readers that use doubles, SQLite's signed INTEGER, numpy's RandomState, torch.manual_seed.
constexpr uint64_t kDerivedSeedMask = 0xffffffffULL;

// The seed of stream `stream` (1, 2, 3, ...) of `base`: distinct streams of one base, and the same stream of
// distinct bases, give unrelated seeds.
inline uint64_t DeriveSeed(uint64_t base, uint64_t stream) {
  SplitMix64 mixer(base ^ (0xd1b54a32d192ed03ULL * (stream + 1)));
  mixer.Next();
  return mixer.Next() & kDerivedSeedMask;
}

// In-place Fisher-Yates shuffle driven by SplitMix64: the same permutation on every platform.
template <typename RandomIt>
void DeterministicShuffle(RandomIt first, RandomIt last, SplitMix64& rng) {
  const auto n = last - first;
  for (auto i = n - 1; i > 0; --i) {
    const auto j = static_cast<decltype(i)>(rng.NextBelow(static_cast<uint64_t>(i) + 1));
    using std::swap;
    swap(first[i], first[j]);
  }
}

}  // namespace evalsuite
