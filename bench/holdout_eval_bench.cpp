// Images per second of `holdout eval`'s pipeline (OpenCV decode + PIL-exact preprocess on a thread pool,
// pipelined with batched LibTorch inference) against the Python torchvision pipeline (PIL decode, transforms,
// DataLoader with worker processes, the same TorchScript model, the same thread count and batch), on the same
// folder of JPEGs, for resnet18, resnet50 and mobilenet_v3_small (random weights), evalsuite with and without
// optimize_for_inference; every ratio printed in one run. Rounds alternate the sides; the best round of each
// counts (the machine is shared; the best is the least disturbed).
// Usage: holdout_eval_bench [IMAGES=256] [THREADS=2] [BATCH=32] [ROUNDS=2]
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "bench/synthetic_photos.h"
#include "datasets/images/holdout_manifest.h"
#include "evalsuite/common/allocator_tuning.h"
#include "evalsuite/common/sha256.h"
#include "evalsuite/generalization/holdout_evaluation.h"

namespace fs = std::filesystem;
using namespace evalsuite;
using nlohmann::json;

namespace {

std::string Capture(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string out;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof(buffer), pipe.get())) out += buffer;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  const int batch = argc > 3 ? std::atoi(argv[3]) : 32;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 2;
  char tmpl[] = "/tmp/evalsuite-holdout-bench-XXXXXX";
  const fs::path dir = mkdtemp(tmpl);
  const auto files = bench::WriteSyntheticPhotos(dir / "images", n, {{500, 375}, {375, 500}, {500, 333}});
  datasets::Holdout holdout;
  holdout.name = "synthetic-jpegs";
  for (int i = 0; i < n; ++i) {
    datasets::HoldoutItem item;
    item.id = std::to_string(i);
    item.class_index = (i * 37) % 1000;
    item.path = fs::relative(files[i], dir).string();
    item.sha256 = Sha256FileHex(files[i]);
    holdout.items.push_back(item);
  }
  datasets::WriteHoldout(holdout, dir);
  const std::string peer = std::string(EVALSUITE_SOURCE_DIR) + "/bench/torchvision_peer.py";
  generalization::SetInferenceThreads(threads);
  TuneAllocatorForTensors();  // as `evalsuite holdout eval` does
  std::cout << fmt::format("{} JPEGs (~500x375), torchvision models with random weights (seed 0) traced to TorchScript, "
                           "{} threads, batch {}, {} rounds (best of each side counts)\n",
                           n, threads, batch, rounds);
  std::string summary;
  for (const std::string arch : {"resnet18", "resnet50", "mobilenet_v3_small"}) {
    const fs::path model_file = dir / (arch + ".pt");
    if (std::system(fmt::format("/usr/bin/python3 {} make-model --arch {} --out {}", peer, arch, model_file.string())
                        .c_str())) {
      std::cerr << "could not make " << arch << " with /usr/bin/python3 (python3-torchvision)\n";
      return 1;
    }
    auto make_evaluator = [&](bool optimize) {
      generalization::ModelSpec model;
      model.name = arch;
      model.file = model_file;
      generalization::EvaluationOptions options;
      options.default_preprocess = datasets::PresetSpec("imagenet");
      options.pipeline.threads = threads;
      options.pipeline.batch = batch;
      options.classifier.optimize = optimize;
      return std::make_unique<generalization::HoldoutEvaluator>(std::vector<generalization::ModelSpec>{model}, options);
    };
    auto optimized = make_evaluator(true);
    auto plain = make_evaluator(false);
    std::cout << arch << ": evalsuite model " << optimized->notes()[0] << "\n";
    double best_ours = 0, best_plain = 0, best_python = 0;
    for (int round = 0; round < rounds; ++round) {
      optimized->Evaluate(dir);  // verification (SHA-256 of every file) + pipeline
      const double ours = n / optimized->last_pipeline_seconds();
      plain->Evaluate(dir);
      const double ours_plain = n / plain->last_pipeline_seconds();
      const json python = json::parse(
          Capture(fmt::format("/usr/bin/python3 {} bench --images {} --model {} --threads {} --batch {} --workers {}",
                              peer, (dir / "images").string(), model_file.string(), threads, batch, threads)));
      const double theirs = python["images_per_second"].get<double>();
      std::cout << fmt::format("  round {}: evalsuite optimized {:.1f} img/s, plain {:.1f} img/s, python/torchvision "
                               "DataLoader {:.1f} img/s\n",
                               round + 1, ours, ours_plain, theirs);
      best_ours = std::max(best_ours, ours);
      best_plain = std::max(best_plain, ours_plain);
      best_python = std::max(best_python, theirs);
    }
    summary += fmt::format("  {:<20} plain {:.2f}x  optimized {:.2f}x  (best {:.1f} / {:.1f} vs {:.1f} img/s)\n", arch,
                           best_plain / best_python, best_ours / best_python, best_plain, best_ours, best_python);
  }
  std::cout << "ratio evalsuite / python-torchvision (target >= 1.5x with the plain model):\n" << summary;
  fs::remove_all(dir);
  return 0;
}
