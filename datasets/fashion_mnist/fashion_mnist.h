// Fashion-MNIST, evalsuite's embedded default dataset, as plain bytes in three fixed splits:
//   train      = the 60,000 training images;
//   validation = half of the 10,000 test images, stratified by class (500 per class): the only data TTA and
//                target checks are measured on;
//   holdout    = the other half (500 per class): never used by training or target checks, kept for the
//                generalization pipeline.
// The test set is split with the fixed seed kFashionMnistSplitSeed, so the splits are the same on every
// machine and every call. Reads Debian's dataset-fashion-mnist files (gzipped) or plain IDX files.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace evalsuite::datasets {

// Where Debian's dataset-fashion-mnist package installs the IDX files.
inline const char* const kDefaultFashionMnistDir = "/usr/share/datasets/fashion-mnist";
// The seed of the validation/holdout split (Fashion-MNIST's release date). Changing it changes every
// validation accuracy and the holdout: it is part of the dataset's definition, not a tunable.
constexpr uint64_t kFashionMnistSplitSeed = 20170825;
constexpr int kFashionMnistClasses = 10;
constexpr int kFashionMnistSide = 28;

// Class names in label order (0 = "T-shirt/top" ... 9 = "Ankle boot").
const std::array<std::string, kFashionMnistClasses>& FashionMnistClassNames();

// Images of one split, row-major bytes (0 = black background, 255 = white), with their labels.
struct ImageSet {
  int rows = kFashionMnistSide;
  int cols = kFashionMnistSide;
  std::vector<uint8_t> pixels;           // size() * rows * cols bytes
  std::vector<uint8_t> labels;           // 0..9
  std::vector<uint32_t> source_indices;  // position of each image in its IDX file (the test file for
                                         // validation and holdout), ascending
  size_t size() const { return labels.size(); }
  const uint8_t* image(size_t i) const { return pixels.data() + i * static_cast<size_t>(rows) * cols; }
};

struct FashionMnist {
  std::filesystem::path dir;
  ImageSet train;
  ImageSet validation;
  ImageSet holdout;
};

// Indices (into the test set) of the validation and holdout splits, each ascending. Per class, the test
// images of that class are shuffled (Fisher-Yates with SplitMix64 seeded once with `seed`, classes in label
// order) and the first floor(n/2) go to validation, the rest to holdout.
struct TestSplit {
  std::vector<uint32_t> validation;
  std::vector<uint32_t> holdout;
};
TestSplit SplitTestSetStratified(const std::vector<uint8_t>& labels, uint64_t seed = kFashionMnistSplitSeed);

// The path of one IDX file in `dir`: `stem` plain or `stem`.gz (e.g. "t10k-labels-idx1-ubyte"). Throws
// IoError naming the folder and both names when neither exists.
std::filesystem::path FindIdxFile(const std::filesystem::path& dir, const std::string& stem);

// Loads and validates the four IDX files of `dir` and splits them. Throws evalsuite::Error naming the file
// at fault: missing, not IDX, truncated, not 28x28, image and label counts that differ, a label outside
// 0..9.
FashionMnist LoadFashionMnist(const std::filesystem::path& dir = kDefaultFashionMnistDir);

// Keeps the first `count` images of `set` (all when count >= size): the quick-run training subset.
ImageSet TakeFirst(const ImageSet& set, size_t count);

}  // namespace evalsuite::datasets
