// Fixtures for the generalization tests: a tiny frozen holdout of flat grey 28x28 PNGs whose class is their
// brightness, and TorchScript models (built with define(), no Python) that classify by mean brightness.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "datasets/images/holdout_manifest.h"

namespace evalsuite::generalization::fixtures {

// Grey level of class k images: 20 k + 10.
int GreyOfClass(int k);

// Writes `per_class` images per class (10 classes, Fashion-MNIST names) to DIR/images and a frozen manifest
// named `name`; returns the holdout. Image i of class k has a small brightness offset so files differ.
datasets::Holdout WriteTinyHoldout(const std::filesystem::path& dir, int per_class, const std::string& name = "tiny");

// A model whose logits are -(mean(x) - centre_k)^2, centre_k = GreyOfClass(perm[k]) / 255: with the identity
// permutation it classifies every tiny-holdout image right; swapping perm entries makes it confuse classes.
void SaveBrightnessModel(const std::filesystem::path& file, const std::vector<int>& perm);

// A model that cannot take a [N, 1, 28, 28] input: forward() reshapes it to [N, 3 * 224 * 224], which the
// TorchScript interpreter refuses with a std::runtime_error (not a c10::Error).
void SaveWrongShapeModel(const std::filesystem::path& file);

// A brightness model that only takes batches of exactly `max_batch` images (it reshapes its 28x28 input to
// [max_batch, 784]): with 1 it loads (probed with one image) and fails during an evaluation in larger batches.
void SaveBatchLimitedModel(const std::filesystem::path& file, int max_batch);

}  // namespace evalsuite::generalization::fixtures
