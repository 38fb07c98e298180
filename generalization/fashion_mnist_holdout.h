// The embedded default's image sets: Fashion-MNIST's 5,000-image holdout split written as PNG files with a
// frozen-holdout manifest, and one frozen holdout per shifted variant (datasets/images/shifted_variants.h).
// Deterministic: the same data and variants give byte-identical files and the same version hashes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace evalsuite::generalization {

constexpr const char* kFashionMnistHoldoutName = "fashion-mnist-holdout";

struct FashionMnistExportOptions {
  std::filesystem::path data_dir;     // IDX files; empty = Debian's /usr/share/datasets/fashion-mnist
  std::vector<std::string> variants;  // shift names; each goes to OUT/<variant>/
  size_t limit = 0;                   // first N holdout images only (quick tests); 0 = all 5,000
};

struct ExportedImageSet {
  std::string name;  // "fashion-mnist-holdout" or "fashion-mnist-holdout:noise"
  std::filesystem::path dir;
  size_t images = 0;
  std::string version_hash;
};

// Writes OUT/manifest.json + OUT/images/*.png, then OUT/<variant>/... for each variant. Throws UsageError for
// an unknown variant (before writing anything), IoError naming the file that cannot be written.
std::vector<ExportedImageSet> ExportFashionMnistHoldout(const std::filesystem::path& out,
                                                        const FashionMnistExportOptions& options);

}  // namespace evalsuite::generalization
