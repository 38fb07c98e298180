// How close evalsuite's `imagenet` preprocessing comes to torchvision's (PIL: Resize(256), CenterCrop(224),
// ToTensor, Normalize) on the same JPEGs: mean and max absolute difference of the input tensors, and top-1
// agreement of one ResNet-18 (random weights, batch-norm calibrated on the images) fed both, for PIL's
// bilinear (the preset's, pil_resample.h) and each OpenCV interpolation. Not a timing.
// Usage: preprocess_fidelity_bench [IMAGES=96]
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "bench/synthetic_photos.h"
#include "datasets/images/image_decode.h"
#include "datasets/images/preprocess.h"
#include "generalization/classifier.h"

namespace fs = std::filesystem;
using namespace evalsuite;

namespace {

void Run(const std::string& command) {
  if (std::system(command.c_str()) != 0) {
    std::cerr << "failed: " << command << "\n";
    std::exit(1);
  }
}

std::vector<int32_t> Top1(generalization::Classifier& model, const std::vector<float>& tensors, int n) {
  std::vector<int32_t> top(static_cast<size_t>(n) * generalization::kTopK);
  const int64_t per = 3 * 224 * 224;
  for (int start = 0; start < n; start += 16) {
    const int count = std::min(16, n - start);
    model.TopK(tensors.data() + start * per, count, top.data() + start * generalization::kTopK);
  }
  std::vector<int32_t> top1(n);
  for (int i = 0; i < n; ++i) top1[i] = top[i * generalization::kTopK];
  return top1;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 96;
  char tmpl[] = "/tmp/evalsuite-fidelity-XXXXXX";
  const fs::path dir = mkdtemp(tmpl);
  // Shrinking (the usual case), portrait, large, and two upscales (shorter side below 256).
  const std::vector<cv::Size> sizes = {{500, 375}, {375, 500}, {640, 480}, {1024, 683},
                                       {800, 600}, {333, 500}, {300, 225}, {256, 256}};
  const auto files = bench::WriteSyntheticPhotos(dir / "images", n, sizes);
  const std::string peer = std::string(EVALSUITE_SOURCE_DIR) + "/bench/torchvision_peer.py";
  Run(fmt::format("/usr/bin/python3 {} make-model --out {} --calibrate {}", peer, (dir / "model.pt").string(),
                  (dir / "images").string()));
  Run(fmt::format("/usr/bin/python3 {} tensors --images {} --out {}", peer, (dir / "images").string(),
                  (dir / "tv.bin").string()));
  const int64_t per = 3 * 224 * 224;
  std::vector<float> reference(static_cast<size_t>(n) * per);
  std::ifstream in(dir / "tv.bin", std::ios::binary);
  in.read(reinterpret_cast<char*>(reference.data()), static_cast<std::streamsize>(reference.size() * sizeof(float)));
  if (!in) {
    std::cerr << "short tensor file\n";
    return 1;
  }
  generalization::SetInferenceThreads(2);
  auto loaded = generalization::LoadTorchScriptClassifier(dir / "model.pt", {3, 224, 224});
  const std::vector<int32_t> reference_top1 = Top1(*loaded.classifier, reference, n);
  std::set<int32_t> distinct(reference_top1.begin(), reference_top1.end());

  std::cout << fmt::format(
      "{} synthetic JPEGs ({} sizes, 2 of them upscaled), torchvision (PIL) vs evalsuite "
      "(OpenCV); model predicts {} distinct classes on them\n",
      n, sizes.size(), distinct.size());
  std::cout << fmt::format("{:<10} {:>14} {:>14} {:>16} {:>18}\n", "interp", "mean |diff|", "max |diff|",
                           "mean |diff| (px)", "top-1 agreement");
  for (auto interpolation : {datasets::Interpolation::kBilinear, datasets::Interpolation::kArea,
                             datasets::Interpolation::kLinear, datasets::Interpolation::kCubic}) {
    datasets::PreprocessSpec spec = datasets::PresetSpec("imagenet");
    spec.interpolation = interpolation;
    std::vector<float> ours(reference.size());
    for (int i = 0; i < n; ++i) {
      datasets::DecodeOptions options;
      options.to_rgb = false;
      const auto decoded = datasets::DecodeImageFile(files[i], options);
      datasets::PreprocessInto(decoded.image, true, spec, ours.data() + i * per);
    }
    double sum = 0, max = 0;
    for (size_t j = 0; j < ours.size(); ++j) {
      const double d = std::abs(static_cast<double>(ours[j]) - reference[j]);
      sum += d;
      max = std::max(max, d);
    }
    const double mean = sum / ours.size();
    const std::vector<int32_t> top1 = Top1(*loaded.classifier, ours, n);
    int agree = 0;
    for (int i = 0; i < n; ++i) agree += top1[i] == reference_top1[i];
    // In pixel units: the normalized difference times std (0.226 on average) times 255.
    std::cout << fmt::format("{:<10} {:>14.5f} {:>14.4f} {:>16.3f} {:>11}/{} ({:.1f}%)\n",
                             datasets::InterpolationName(interpolation), mean, max, mean * 0.226 * 255, agree, n,
                             100.0 * agree / n);
  }
  fs::remove_all(dir);
  return 0;
}
