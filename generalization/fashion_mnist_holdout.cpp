#include "generalization/fashion_mnist_holdout.h"

#include <fmt/format.h>

#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "common/error.h"
#include "common/sha256.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "datasets/images/holdout_manifest.h"
#include "datasets/images/shifted_variants.h"

namespace evalsuite::generalization {
namespace {

// Encodes and writes one 28x28 PNG; returns its SHA-256 (of the bytes written, so no second read).
std::string WritePng(const cv::Mat& image, const std::filesystem::path& file) {
  std::vector<uchar> bytes;
  // Fixed compression level: the same pixels give the same bytes, hence stable hashes.
  if (!cv::imencode(".png", image, bytes, {cv::IMWRITE_PNG_COMPRESSION, 6})) {
    throw ExternalError(file.string(), "PNG encoding failed");
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw IoError(file.string(), "cannot write the image");
  return Sha256Hex(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

ExportedImageSet WriteImageSet(const datasets::ImageSet& set, size_t count, const std::filesystem::path& dir,
                               const std::string& name, const datasets::ShiftSpec* shift, nlohmann::json rule) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "images", ec);
  if (ec) throw IoError((dir / "images").string(), "cannot create the folder: " + ec.message());
  const auto& class_names = datasets::FashionMnistClassNames();
  datasets::Holdout holdout;
  holdout.name = name;
  holdout.class_list = "fashion-mnist";
  holdout.class_names.assign(class_names.begin(), class_names.end());
  holdout.rule = std::move(rule);
  holdout.created_at = "";  // WriteHoldout stamps it
  for (size_t i = 0; i < count; ++i) {
    const cv::Mat original(set.rows, set.cols, CV_8UC1, const_cast<uint8_t*>(set.image(i)));
    const uint32_t source = set.source_indices[i];
    const cv::Mat image = shift ? datasets::ApplyShift(original, *shift, source) : original;
    datasets::HoldoutItem item;
    item.id = fmt::format("test-{:05d}", source);
    item.class_index = set.labels[i];
    item.class_name = class_names[set.labels[i]];
    item.path = fmt::format("images/{:05d}.png", source);
    item.sha256 = WritePng(image, dir / item.path);
    holdout.items.push_back(std::move(item));
  }
  datasets::WriteHoldout(holdout, dir);
  const datasets::Holdout written = datasets::ReadHoldout(dir);
  return {name, dir, count, written.version_hash};
}

}  // namespace

std::vector<ExportedImageSet> ExportFashionMnistHoldout(const std::filesystem::path& out,
                                                        const FashionMnistExportOptions& options) {
  std::vector<datasets::ShiftSpec> shifts;
  for (const std::string& name : options.variants) shifts.push_back(datasets::DefaultShift(name));
  const datasets::FashionMnist data = datasets::LoadFashionMnist(
      options.data_dir.empty() ? std::filesystem::path(datasets::kDefaultFashionMnistDir) : options.data_dir);
  const datasets::ImageSet& holdout = data.holdout;
  const size_t count = options.limit > 0 ? std::min(options.limit, holdout.size()) : holdout.size();
  const nlohmann::json base_rule = {{"rule", "fashion-mnist holdout split"},
                                    {"split_seed", datasets::kFashionMnistSplitSeed},
                                    {"source", "t10k (Fashion-MNIST test set), stratified half never used in training"},
                                    {"images", count}};
  std::vector<ExportedImageSet> sets;
  sets.push_back(WriteImageSet(holdout, count, out, kFashionMnistHoldoutName, nullptr, base_rule));
  for (const datasets::ShiftSpec& shift : shifts) {
    nlohmann::json rule = base_rule;
    rule["shift"] = {
        {"name", shift.name}, {"strength", shift.strength}, {"seed", shift.seed}, {"description", shift.Describe()}};
    sets.push_back(WriteImageSet(holdout, count, out / shift.name,
                                 std::string(kFashionMnistHoldoutName) + ":" + shift.name, &shift, rule));
  }
  return sets;
}

}  // namespace evalsuite::generalization
