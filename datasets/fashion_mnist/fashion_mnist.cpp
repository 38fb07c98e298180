#include "datasets/fashion_mnist/fashion_mnist.h"

#include <algorithm>

#include "common/error.h"
#include "common/seeds.h"
#include "datasets/fashion_mnist/idx_file.h"

namespace evalsuite::datasets {
namespace fs = std::filesystem;
namespace {

struct LabeledImages {
  ImageSet set;  // every image of the file pair, source_indices = 0..n-1
  fs::path images_file;
};

LabeledImages LoadPair(const fs::path& dir, const std::string& prefix) {
  const fs::path images_file = FindIdxFile(dir, prefix + "-images-idx3-ubyte");
  const fs::path labels_file = FindIdxFile(dir, prefix + "-labels-idx1-ubyte");
  IdxArray images = ReadIdxFile(images_file, 3);
  IdxArray labels = ReadIdxFile(labels_file, 1);
  if (images.dims[1] != kFashionMnistSide || images.dims[2] != kFashionMnistSide) {
    throw InputError(images_file.string(), "images are " + std::to_string(images.dims[1]) + "x" +
                                               std::to_string(images.dims[2]) + ", expected 28x28");
  }
  if (images.dims[0] != labels.dims[0]) {
    throw InputError(labels_file.string(), "holds " + std::to_string(labels.dims[0]) + " labels but " +
                                               images_file.string() + " holds " + std::to_string(images.dims[0]) +
                                               " images");
  }
  for (size_t i = 0; i < labels.data.size(); ++i) {
    if (labels.data[i] >= kFashionMnistClasses) {
      throw InputError(labels_file.string(), "label " + std::to_string(labels.data[i]) + " of item " +
                                                 std::to_string(i) + " is out of range 0..9");
    }
  }
  LabeledImages out;
  out.images_file = images_file;
  out.set.pixels = std::move(images.data);
  out.set.labels = std::move(labels.data);
  out.set.source_indices.resize(out.set.labels.size());
  for (size_t i = 0; i < out.set.source_indices.size(); ++i) out.set.source_indices[i] = static_cast<uint32_t>(i);
  return out;
}

ImageSet Select(const ImageSet& from, const std::vector<uint32_t>& indices) {
  ImageSet out;
  out.rows = from.rows;
  out.cols = from.cols;
  const size_t image_bytes = static_cast<size_t>(from.rows) * from.cols;
  out.pixels.resize(indices.size() * image_bytes);
  out.labels.reserve(indices.size());
  out.source_indices.reserve(indices.size());
  for (size_t k = 0; k < indices.size(); ++k) {
    const uint32_t i = indices[k];
    std::copy_n(from.image(i), image_bytes, out.pixels.begin() + static_cast<std::ptrdiff_t>(k * image_bytes));
    out.labels.push_back(from.labels[i]);
    out.source_indices.push_back(from.source_indices[i]);
  }
  return out;
}

}  // namespace

const std::array<std::string, kFashionMnistClasses>& FashionMnistClassNames() {
  static const std::array<std::string, kFashionMnistClasses> names = {
      "T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"};
  return names;
}

TestSplit SplitTestSetStratified(const std::vector<uint8_t>& labels, uint64_t seed) {
  std::array<std::vector<uint32_t>, 256> by_class;
  for (size_t i = 0; i < labels.size(); ++i) by_class[labels[i]].push_back(static_cast<uint32_t>(i));
  SplitMix64 rng(seed);
  TestSplit split;
  for (auto& members : by_class) {
    if (members.empty()) continue;
    DeterministicShuffle(members.begin(), members.end(), rng);
    const size_t half = members.size() / 2;
    split.validation.insert(split.validation.end(), members.begin(), members.begin() + half);
    split.holdout.insert(split.holdout.end(), members.begin() + half, members.end());
  }
  std::sort(split.validation.begin(), split.validation.end());
  std::sort(split.holdout.begin(), split.holdout.end());
  return split;
}

fs::path FindIdxFile(const fs::path& dir, const std::string& stem) {
  for (const fs::path& candidate : {dir / stem, dir / (stem + ".gz")}) {
    if (fs::is_regular_file(candidate)) return candidate;
  }
  throw IoError(dir.string(), "no " + stem + " or " + stem + ".gz in this folder (Fashion-MNIST IDX files; " +
                                  "install Debian's dataset-fashion-mnist or pass --data DIR)");
}

FashionMnist LoadFashionMnist(const fs::path& dir) {
  if (!fs::is_directory(dir)) {
    throw IoError(dir.string(),
                  "not a folder (Fashion-MNIST IDX files expected; install Debian's "
                  "dataset-fashion-mnist or pass --data DIR)");
  }
  FashionMnist data;
  data.dir = dir;
  data.train = LoadPair(dir, "train").set;
  const LabeledImages test = LoadPair(dir, "t10k");
  const TestSplit split = SplitTestSetStratified(test.set.labels);
  data.validation = Select(test.set, split.validation);
  data.holdout = Select(test.set, split.holdout);
  return data;
}

ImageSet TakeFirst(const ImageSet& set, size_t count) {
  if (count >= set.size()) return set;
  std::vector<uint32_t> first(count);
  for (size_t i = 0; i < count; ++i) first[i] = static_cast<uint32_t>(i);
  return Select(set, first);
}

}  // namespace evalsuite::datasets
