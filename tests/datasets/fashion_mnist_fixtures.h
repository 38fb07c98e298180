// Small Fashion-MNIST-format fixtures written by the tests themselves: IDX files (plain or gzipped) with a
// few synthetic images, and helpers to damage them.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "datasets/fashion_mnist/idx_file.h"
#include "tests/support/test_support.h"

namespace evalsuite::testing {

inline datasets::IdxArray MakeImages(uint32_t count, uint32_t side = 28) {
  datasets::IdxArray images;
  images.dims = {count, side, side};
  images.data.resize(static_cast<size_t>(count) * side * side);
  for (size_t i = 0; i < images.data.size(); ++i) images.data[i] = static_cast<uint8_t>((i * 7 + i / 784) % 256);
  return images;
}

// `count` labels cycling 0..9 (so every class has count / 10 items when count is a multiple of 10).
inline datasets::IdxArray MakeLabels(uint32_t count) {
  datasets::IdxArray labels;
  labels.dims = {count};
  for (uint32_t i = 0; i < count; ++i) labels.data.push_back(static_cast<uint8_t>(i % 10));
  return labels;
}

inline std::string Gzip(const std::string& bytes) {
  TempDir dir;
  const std::string file = (dir / "x.gz").string();
  gzFile out = gzopen(file.c_str(), "wb");
  if (!out) throw std::runtime_error("gzopen failed");
  gzwrite(out, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(out);
  return ReadFile(file);
}

// Writes the four IDX files into `dir` (gzipped with ".gz" names when `gzipped`).
inline void WriteFashionMnistFixture(const std::filesystem::path& dir, const datasets::IdxArray& train_images,
                                     const datasets::IdxArray& train_labels, const datasets::IdxArray& test_images,
                                     const datasets::IdxArray& test_labels, bool gzipped) {
  auto write = [&](const std::string& stem, const datasets::IdxArray& array) {
    const std::string bytes = datasets::EncodeIdx(array);
    if (gzipped) {
      WriteFile(dir / (stem + ".gz"), Gzip(bytes));
    } else {
      WriteFile(dir / stem, bytes);
    }
  };
  std::filesystem::create_directories(dir);
  write("train-images-idx3-ubyte", train_images);
  write("train-labels-idx1-ubyte", train_labels);
  write("t10k-images-idx3-ubyte", test_images);
  write("t10k-labels-idx1-ubyte", test_labels);
}

}  // namespace evalsuite::testing
