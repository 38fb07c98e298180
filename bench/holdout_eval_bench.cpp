// Images per second of `holdout eval`'s pipeline (OpenCV decode + PIL-exact preprocess on a thread pool,
// pipelined with batched LibTorch inference) against the Python torchvision pipeline (PIL decode, transforms,
// DataLoader with worker processes, the same TorchScript model, the same thread count and batch), on the same
// folder of JPEGs, for resnet18, resnet50 and mobilenet_v3_small (random weights), evalsuite with and without
// optimize_for_inference; every ratio printed in one run. Rounds alternate the sides; the best round of each
// counts (the machine is shared; the best is the least disturbed). With BATCH 0 the batch is chosen as
// `holdout eval` chooses it (batch_size_probe.h, for this many images; the probe's own seconds are printed, not
// counted) and torchvision runs at the plain model's batch. Per model it also prints where the time goes:
// decode + preprocess alone, inference alone (synthetic input), and the pipeline against running both back to
// back on the same cores; with THREAD_VARIANTS 1, the plain model's pipeline under other splits of the cores
// between decode workers and LibTorch threads. The bench runs with OMP_WAIT_POLICY=passive as `holdout eval`
// does (openmp_wait_policy.h; start it with OMP_WAIT_POLICY set to measure another policy); the torchvision
// peer runs as its user would (the starting environment) and again with passive.
// Usage: holdout_eval_bench [IMAGES=512] [THREADS=2] [BATCH=0] [ROUNDS=2] [THREAD_VARIANTS=0] [MODELS=a,b,c]
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/synthetic_photos.h"
#include "common/allocator_tuning.h"
#include "common/openmp_wait_policy.h"
#include "common/sha256.h"
#include "datasets/images/holdout_manifest.h"
#include "generalization/batch_size_probe.h"
#include "generalization/evaluation_pipeline.h"
#include "generalization/holdout_evaluation.h"

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

double ImagesPerSecond(generalization::HoldoutEvaluator& evaluator, const fs::path& dir, size_t n) {
  evaluator.Evaluate(dir);  // verification (SHA-256 of every file, not counted) + pipeline
  return static_cast<double>(n) / evaluator.last_pipeline_seconds();
}

// Wall seconds and CPU seconds (every thread of this process) of f().
struct Cost {
  double wall = 0, cpu = 0;
};
template <typename F>
Cost Measure(F&& f) {
  auto cpu_now = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  };
  const double cpu = cpu_now();
  const auto start = std::chrono::steady_clock::now();
  f();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_now() - cpu};
}

// Where the time goes for one model (plain): decode + preprocess alone (the pipeline with no model), inference
// alone (synthetic input at the batch), and the pipeline against running both back to back on the same cores
// (1 / (1/decode + 1/inference)): above 1x, decoding fills cycles inference leaves idle; below, they get in each
// other's way. CPU milliseconds per image (all threads) show waste that wall time on a shared machine hides:
// spinning at OpenMP barriers while a partner thread is descheduled counts there.
void ExplainTime(const fs::path& model_file, const std::vector<fs::path>& files, int batch, int threads,
                 bool variants) {
  const datasets::PreprocessSpec spec = datasets::PresetSpec("imagenet");
  generalization::ClassifierOptions plain;
  plain.optimize = false;
  auto model = generalization::LoadTorchScriptClassifier(model_file, spec.OutputShape(), plain).classifier;
  const double n = static_cast<double>(files.size());
  generalization::PipelineOptions decode_only;
  decode_only.threads = threads;
  decode_only.batch = batch;
  const Cost decode = Measure([&] { generalization::RunPipeline(files, {spec}, {}, decode_only); });
  std::vector<float> input(static_cast<size_t>(batch) * spec.OutputSize());
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 2654435761u) >> 22) / 256.0f - 2.0f;
  std::vector<int32_t> top(static_cast<size_t>(batch) * generalization::kTopK);
  std::vector<float> scores(top.size());
  model->TopK(input.data(), batch, top.data(), scores.data());  // warm-up at this shape
  const int calls = std::max(1, static_cast<int>(files.size()) / batch);
  const Cost inference = Measure([&] {
    for (int c = 0; c < calls; ++c) model->TopK(input.data(), batch, top.data(), scores.data());
  });
  const double inferred = static_cast<double>(calls) * batch;
  const double serial = 1 / (decode.wall / n + inference.wall / inferred);
  std::cout << fmt::format(
      "  where the time goes (plain, batch {}): decode+preprocess alone {:.1f} img/s ({:.1f} CPU ms/img, {} workers), "
      "inference alone {:.1f} img/s ({:.1f} CPU ms/img, {} LibTorch threads); back to back {:.1f} img/s, {:.1f} CPU "
      "ms/img\n",
      batch, n / decode.wall, 1e3 * decode.cpu / n, threads, inferred / inference.wall, 1e3 * inference.cpu / inferred,
      threads, serial, 1e3 * (decode.cpu / n + inference.cpu / inferred));
  struct Variant {
    int workers, torch_threads;
  };
  std::vector<Variant> list = {{threads, threads}};
  if (variants) list.insert(list.end(), {{1, 2}, {3, 2}, {2, 1}, {1, 1}, {threads, threads}});
  for (const Variant& v : list) {
    generalization::SetInferenceThreads(v.torch_threads);
    generalization::PipelineOptions options;
    options.threads = v.workers;
    options.batch = batch;
    const Cost pipeline = Measure([&] { generalization::RunPipeline(files, {spec}, {{model.get(), 0}}, options); });
    std::cout << fmt::format(
        "    pipeline, {} decode workers, {} LibTorch threads: {:.1f} img/s = {:.2f}x back to back, {:.1f} CPU "
        "ms/img\n",
        v.workers, v.torch_threads, n / pipeline.wall, n / pipeline.wall / serial, 1e3 * pipeline.cpu / n);
  }
  generalization::SetInferenceThreads(threads);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  const int given_batch = argc > 3 ? std::atoi(argv[3]) : 0;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 2;
  const bool thread_variants = argc > 5 && std::atoi(argv[5]) != 0;
  std::vector<std::string> archs = {"resnet18", "resnet50", "mobilenet_v3_small"};
  if (argc > 6) {  // a comma-separated subset
    archs.clear();
    std::stringstream list(argv[6]);
    for (std::string arch; std::getline(list, arch, ',');) archs.push_back(arch);
  }
  std::cout << std::unitbuf;  // progress shows as it comes when the output goes to a file
  // As the front binary does for `holdout eval`: LibTorch's OpenMP threads sleep rather than spin when they wait.
  // libgomp reads the variable when it is loaded, so this process starts itself again with it.
  const bool set_by_evalsuite = std::getenv("EVALSUITE_OMP_WAIT_POLICY_SET") != nullptr;
  const bool wait_set_by_user =
      !set_by_evalsuite && (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr);
  if (!wait_set_by_user && !set_by_evalsuite) {
    PreferPassiveOpenMpWait();
    execv("/proc/self/exe", argv);
    std::cerr << "cannot start /proc/self/exe again: " << std::strerror(errno) << "\n";
    return 1;
  }
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
  double load[3] = {0, 0, 0};
  getloadavg(load, 3);
  std::cout << fmt::format(
      "{} JPEGs (~500x375), torchvision models with random weights (seed 0) traced to TorchScript, "
      "{} threads, batch {}, {} rounds (best of each side counts), OpenMP wait {}; load average "
      "{:.2f} {:.2f} {:.2f}\n",
      n, threads, given_batch > 0 ? std::to_string(given_batch) : "measured at start-up", rounds, OpenMpWaitPolicy(),
      load[0], load[1], load[2]);
  std::string summary;
  for (const std::string& arch : archs) {
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
      options.pipeline.batch = 32;  // until chosen
      options.classifier.optimize = optimize;
      return std::make_unique<generalization::HoldoutEvaluator>(std::vector<generalization::ModelSpec>{model}, options);
    };
    // As `holdout eval` does: the batch given, or measured on the loaded model for this many images.
    auto choose = [&](generalization::HoldoutEvaluator& evaluator, const char* which) {
      if (given_batch > 0) return given_batch;
      generalization::BatchProbeOptions probe;
      probe.images = n;
      const generalization::BatchProbeResult r = evaluator.ChooseBatchSize(probe);
      std::cout << fmt::format("  {}: {}\n", which, generalization::DescribeBatchProbe(r));
      return r.batch;
    };
    std::cout << arch << ":\n";
    auto optimized = make_evaluator(true);
    std::cout << "  evalsuite model " << optimized->notes()[0] << "\n";
    const int optimized_batch = choose(*optimized, "optimized");
    auto plain = make_evaluator(false);
    const int batch = choose(*plain, "plain");
    ExplainTime(model_file, files, batch, threads, thread_variants);
    double best_ours = 0, best_plain = 0, best_python = 0, best_python_passive = 0;
    // The peer as a torchvision user runs it (the environment this bench was started in), and with evalsuite's
    // wait policy, so that the ratio is not only that setting.
    auto python = [&](bool passive) {
      const std::string env = passive            ? "env OMP_WAIT_POLICY=passive"
                              : wait_set_by_user ? "env"
                                                 : "env -u OMP_WAIT_POLICY -u EVALSUITE_OMP_WAIT_POLICY_SET";
      return json::parse(Capture(fmt::format(
          "{} /usr/bin/python3 {} bench --images {} --model {} --threads {} --batch {} --workers {}", env, peer,
          (dir / "images").string(), model_file.string(), threads, batch, threads)))["images_per_second"]
          .get<double>();
    };
    for (int round = 0; round < rounds; ++round) {
      const double ours = ImagesPerSecond(*optimized, dir, n);
      const double ours_plain = ImagesPerSecond(*plain, dir, n);
      const double theirs = python(false);
      const double theirs_passive = python(true);
      std::cout << fmt::format(
          "  round {}: evalsuite optimized {:.1f} img/s (batch {}), plain {:.1f} img/s (batch {}), "
          "python/torchvision DataLoader {:.1f} img/s (batch {}; {:.1f} with OMP_WAIT_POLICY=passive)\n",
          round + 1, ours, optimized_batch, ours_plain, batch, theirs, batch, theirs_passive);
      best_ours = std::max(best_ours, ours);
      best_plain = std::max(best_plain, ours_plain);
      best_python = std::max(best_python, theirs);
      best_python_passive = std::max(best_python_passive, theirs_passive);
    }
    summary += fmt::format(
        "  {:<20} plain {:.2f}x  optimized {:.2f}x  (best {:.1f} / {:.1f} vs {:.1f} img/s); against the peer with "
        "OMP_WAIT_POLICY=passive ({:.1f} img/s): plain {:.2f}x, optimized {:.2f}x\n",
        arch, best_plain / best_python, best_ours / best_python, best_plain, best_ours, best_python,
        best_python_passive, best_plain / best_python_passive, best_ours / best_python_passive);
  }
  getloadavg(load, 3);
  std::cout << fmt::format(
                   "ratio evalsuite / python-torchvision (target >= 1.5x with the plain model); load average "
                   "at the end {:.2f} {:.2f} {:.2f}:\n",
                   load[0], load[1], load[2])
            << summary;
  fs::remove_all(dir);
  return 0;
}
