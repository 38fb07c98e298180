// The fixed validation/holdout split: sizes, stratification, disjointness and stability, on synthetic labels
// and on the real Debian files when they are installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "common/seeds.h"
#include "datasets/fashion_mnist/fashion_mnist.h"

namespace evalsuite::testing {
namespace {

// 1,000 labels per class in a scrambled order, like Fashion-MNIST's test set.
std::vector<uint8_t> ScrambledLabels() {
  std::vector<uint8_t> labels;
  for (int i = 0; i < 10000; ++i) labels.push_back(static_cast<uint8_t>(i % 10));
  SplitMix64 rng(99);
  DeterministicShuffle(labels.begin(), labels.end(), rng);
  return labels;
}

std::array<int, 10> PerClass(const std::vector<uint32_t>& indices, const std::vector<uint8_t>& labels) {
  std::array<int, 10> counts{};
  for (uint32_t i : indices) ++counts[labels[i]];
  return counts;
}

TEST(FashionMnistSplit, HalvesEveryClassIntoDisjointSortedSplits) {
  const std::vector<uint8_t> labels = ScrambledLabels();
  const datasets::TestSplit split = datasets::SplitTestSetStratified(labels);
  ASSERT_EQ(split.validation.size(), 5000u);
  ASSERT_EQ(split.holdout.size(), 5000u);
  for (int count : PerClass(split.validation, labels)) EXPECT_EQ(count, 500);
  for (int count : PerClass(split.holdout, labels)) EXPECT_EQ(count, 500);
  EXPECT_TRUE(std::is_sorted(split.validation.begin(), split.validation.end()));
  std::set<uint32_t> all(split.validation.begin(), split.validation.end());
  all.insert(split.holdout.begin(), split.holdout.end());
  EXPECT_EQ(all.size(), 10000u);  // disjoint and covering
}

TEST(FashionMnistSplit, FixedSeedGivesTheSameSplitEveryCallAndOtherSeedsDiffer) {
  const std::vector<uint8_t> labels = ScrambledLabels();
  const datasets::TestSplit a = datasets::SplitTestSetStratified(labels);
  const datasets::TestSplit b = datasets::SplitTestSetStratified(labels, datasets::kFashionMnistSplitSeed);
  EXPECT_EQ(a.validation, b.validation);
  EXPECT_EQ(a.holdout, b.holdout);
  const datasets::TestSplit other = datasets::SplitTestSetStratified(labels, datasets::kFashionMnistSplitSeed + 1);
  EXPECT_NE(a.validation, other.validation);
  // Not simply the first half of each class: the shuffle mixes early and late images.
  EXPECT_GT(*std::max_element(a.validation.begin(), a.validation.end()), 9000u);
}

TEST(FashionMnistSplit, OddClassSizesGiveValidationTheSmallerHalf) {
  const std::vector<uint8_t> labels = {0, 0, 0, 1, 1, 2};
  const datasets::TestSplit split = datasets::SplitTestSetStratified(labels);
  EXPECT_EQ(PerClass(split.validation, labels), (std::array<int, 10>{1, 1, 0}));
  EXPECT_EQ(PerClass(split.holdout, labels), (std::array<int, 10>{2, 1, 1}));
}

TEST(FashionMnistSplit, RealDebianFilesGiveTheDocumentedSplits) {
  if (!std::filesystem::is_directory(datasets::kDefaultFashionMnistDir)) {
    GTEST_SKIP() << datasets::kDefaultFashionMnistDir << " is absent (Debian's dataset-fashion-mnist)";
  }
  const datasets::FashionMnist data = datasets::LoadFashionMnist();
  EXPECT_EQ(data.train.size(), 60000u);
  ASSERT_EQ(data.validation.size(), 5000u);
  ASSERT_EQ(data.holdout.size(), 5000u);
  std::array<int, 10> validation_counts{}, holdout_counts{};
  for (uint8_t label : data.validation.labels) ++validation_counts[label];
  for (uint8_t label : data.holdout.labels) ++holdout_counts[label];
  for (int c = 0; c < 10; ++c) {
    EXPECT_EQ(validation_counts[c], 500) << "class " << c;
    EXPECT_EQ(holdout_counts[c], 500) << "class " << c;
  }
  std::set<uint32_t> validation(data.validation.source_indices.begin(), data.validation.source_indices.end());
  for (uint32_t i : data.holdout.source_indices) EXPECT_EQ(validation.count(i), 0u) << "test image " << i;
  // Pinned: the split is part of the dataset's definition, so a change of the algorithm or the seed (which
  // would silently change every validation accuracy and the holdout) fails here.
  const std::vector<uint32_t> first_validation(data.validation.source_indices.begin(),
                                               data.validation.source_indices.begin() + 8);
  const std::vector<uint32_t> first_holdout(data.holdout.source_indices.begin(),
                                            data.holdout.source_indices.begin() + 8);
  EXPECT_EQ(first_validation, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 11, 13}));
  EXPECT_EQ(first_holdout, (std::vector<uint32_t>{6, 7, 8, 9, 10, 12, 15, 16}));
  uint64_t fnv = 1469598103934665603ULL;  // FNV-1a over all validation indices
  for (uint32_t i : data.validation.source_indices) fnv = (fnv ^ i) * 1099511628211ULL;
  EXPECT_EQ(fnv, 8073712466012083852ULL);
  // Stable across calls (and machines: the split is a pure function of the labels and the fixed seed).
  const datasets::FashionMnist again = datasets::LoadFashionMnist();
  EXPECT_EQ(again.validation.source_indices, data.validation.source_indices);
  EXPECT_EQ(again.holdout.source_indices, data.holdout.source_indices);
  EXPECT_EQ(again.validation.pixels, data.validation.pixels);
}

}  // namespace
}  // namespace evalsuite::testing
