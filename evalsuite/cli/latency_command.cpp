// `evalsuite latency MODEL.pt --holdout DIR`: DAWNBench's inference metrics for a TorchScript model on a frozen
// holdout: batch-1 latency percentiles after warm-up, throughput at the best batch size, cost per 10,000 images
// from --price-per-hour, and the top-1/top-5 the same model reaches on that holdout (holdout eval's classifier
// and pipeline, generalization/), optionally placed among DAWNBench's inference entries.
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "common/allocator_tuning.h"
#include "common/error.h"
#include "common/json_access.h"
#include "common/openmp_wait_policy.h"
#include "datasets/images/holdout_manifest.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "generalization/dawnbench_inference.h"
#include "generalization/holdout_evaluation.h"
#include "generalization/latency.h"
#include "study/hardware/contention_sampler.h"

namespace evalsuite::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct LatencyArgs {
  std::string model;
  std::string holdout;
  int threads = 1;
  size_t max_images = 1000;
  int warmup = 10;
  std::vector<int> batch_sizes = {1, 8, 32, 128};
  std::optional<double> price_per_hour;
  std::string dawnbench;
  std::string json_file;
};

// This process's user + system CPU seconds so far.
double OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// Keeps the preprocessed images the evaluation pipeline hands to a model: the pipeline decodes and preprocesses
// exactly as holdout eval does, and the latency is then timed on those floats alone.
class CapturingClassifier : public generalization::Classifier {
 public:
  explicit CapturingClassifier(size_t image_floats) : image_floats_(image_floats) {}
  int num_outputs() const override { return generalization::kTopK; }
  void TopK(const float* batch, int n, int32_t* top, float* scores = nullptr) override {
    images_.insert(images_.end(), batch, batch + static_cast<size_t>(n) * image_floats_);
    std::fill(top, top + static_cast<ptrdiff_t>(n) * generalization::kTopK, -1);
    if (scores) std::fill(scores, scores + static_cast<ptrdiff_t>(n) * generalization::kTopK, 0.0f);
  }
  std::vector<float>& images() { return images_; }

 private:
  size_t image_floats_;
  std::vector<float> images_;
};

void RunLatency(const LatencyArgs& args) {
  if (args.threads < 1) throw UsageError("--threads", "must be at least 1");
  std::ofstream json_out;
  if (!args.json_file.empty()) {
    json_out.open(args.json_file, std::ios::trunc);
    if (!json_out) throw IoError(args.json_file, "cannot write the JSON output");
  }
  std::vector<generalization::InferenceEntry> dawnbench;
  if (!args.dawnbench.empty()) dawnbench = generalization::ReadDawnbenchInference(args.dawnbench);
  const datasets::Holdout holdout = datasets::ReadHoldout(args.holdout);
  generalization::ModelSpec spec;
  spec.name = fs::path(args.model).stem().string();
  spec.file = args.model;
  generalization::ApplySidecar(&spec);
  const datasets::PreprocessSpec preprocess =
      spec.preprocess ? *spec.preprocess : generalization::DefaultPreprocessFor(holdout.class_list);
  generalization::SetInferenceThreads(args.threads);
  // Issue 56 item 3: with glibc's default allocator every call's activations above the mmap threshold were fresh
  // mmap()s, page-faulted in and given back on free, or were not, as the threshold moved with the run's history:
  // throughput at one batch size swung 20x between runs. Kept in the heap, as train and holdout eval keep them.
  const json allocator = TuneAllocatorForTensors();

  // Accuracy on the whole holdout, as holdout eval reports it.
  generalization::EvaluationOptions eval_options;
  eval_options.default_preprocess = preprocess;
  eval_options.pipeline.threads = args.threads;
  generalization::HoldoutEvaluator evaluator({spec}, eval_options);
  const json evaluated = evaluator.Evaluate(args.holdout);
  const json& model_result = evaluated["models"][0];

  // The first --max-images images, preprocessed by the same pipeline.
  std::vector<fs::path> files;
  for (const datasets::HoldoutItem& item : holdout.items) {
    if (files.size() >= args.max_images) break;
    files.push_back(fs::path(args.holdout) / item.path);
  }
  size_t image_floats = 1;
  for (int64_t d : preprocess.OutputShape()) image_floats *= static_cast<size_t>(d);
  CapturingClassifier capture(image_floats);
  generalization::PipelineOptions pipeline;
  pipeline.threads = args.threads;
  generalization::RunPipeline(files, {preprocess}, {{&capture, 0}}, pipeline);

  generalization::LoadedClassifier loaded =
      generalization::LoadTorchScriptClassifier(spec.file, preprocess.OutputShape());
  generalization::LatencyOptions options;
  options.warmup = args.warmup;
  options.batch_sizes = args.batch_sizes;
  options.price_per_hour = args.price_per_hour;
  // What the machine's other work was while the figures were taken: a run states the spread it saw, so a machine
  // whose load changes between two runs moves their figures further apart than either run's ranges.
  study::ContentionMonitor machine;
  machine.RunStarted(0, getpid(), {});
  const double cpu_before = OwnCpuSeconds();
  options.on_round = [&machine] { machine.Poll(); };
  const generalization::LatencyResult r =
      generalization::MeasureLatency(*loaded.classifier, capture.images(), image_floats, options);
  const analysis::RunContention contention = machine.RunFinished(0, OwnCpuSeconds() - cpu_before).value();

  const double top1 = model_result["top1"]["accuracy"].get<double>();
  const double top5_accuracy = model_result["top5"]["accuracy"].get<double>();
  std::cout << fmt::format("{} on {} ({} images timed, {} threads; {})\n", spec.name, holdout.name, r.seconds.size(),
                           args.threads, loaded.note);
  std::cout << fmt::format(
      "latency at batch 1: p50 {:.3f} ms (rounds {:.3f} to {:.3f})  p90 {:.3f} ms  p99 {:.3f} ms  mean {:.3f} ms\n",
      1e3 * r.p50, 1e3 * r.p50_low, 1e3 * r.p50_high, 1e3 * r.p90, 1e3 * r.p99, 1e3 * r.mean);
  for (const generalization::Throughput& t : r.throughput) {
    std::cout << fmt::format("  batch {:>4}: {:>9.0f} images/s (rounds {:.0f} to {:.0f})\n", t.batch,
                             t.images_per_second, t.low, t.high);
  }
  const std::optional<double> other_cores = contention.other_busy_cores;
  const std::optional<analysis::LoadAverageSamples>& load = contention.load_average_1m;
  std::cout << fmt::format(
      "machine during the measurement: other work on {} of {} cores{}; under another load, figures may fall "
      "outside these ranges\n",
      other_cores ? fmt::format("{:.1f}", *other_cores) : "an unknown number",
      static_cast<double>(contention.cores.value_or(0)),
      load ? fmt::format(" (load average up to {:.1f})", load->max.value_or(0)) : "");
  std::string ties;
  for (int batch : r.tied_with_best) ties += (ties.empty() ? "" : ", ") + std::to_string(batch);
  std::cout << fmt::format("best batch {}: {:.0f} images/s{}; top-1 {:.4f}, top-5 {:.4f} on {} images\n", r.best_batch,
                           r.best_throughput,
                           ties.empty() ? "" : " (not told apart from batch " + ties + ": their ranges overlap)", top1,
                           top5_accuracy, model_result["evaluated"].get<int64_t>());
  if (r.cost_per_10k_batch1) {
    std::cout << fmt::format(
        "cost per 10,000 images at {} USD/h: {:.6f} USD at batch 1 (DAWNBench's), {:.6f} at batch {}\n",
        *args.price_per_hour, *r.cost_per_10k_batch1, *r.cost_per_10k_best, r.best_batch);
  }
  json out = {{"model", spec.name},
              {"file", spec.file.string()},
              {"holdout", holdout.name},
              {"threads", args.threads},
              {"top1", top1},
              {"top5", top5_accuracy},
              {"price_per_hour", JsonOrNull(args.price_per_hour)},
              {"allocator", allocator},
              {"openmp_wait", OpenMpWaitPolicy()},
              {"warmup_per_shape", options.warmup_per_shape},
              {"rounds", options.repeats},
              {"machine", analysis::ContentionToJson(contention)},
              {"latency", generalization::LatencyResultToJson(r)}};
  if (!args.dawnbench.empty()) {
    // Like with like: only entries of the holdout's task, on the metric they report (dawnbench_inference.h).
    const generalization::DawnbenchComparison compared =
        generalization::CompareWithDawnbench(dawnbench, holdout.class_list);
    const bool top5 = compared.metric == "top5";
    const std::string metric_name = top5 ? "top-5" : "top-1";
    const double mine = top5 ? top5_accuracy : top1;
    json placed = json::array();
    if (compared.comparable.empty()) {
      std::cout << "\nDAWNBench: " << compared.note << ".\n";
    } else {
      std::cout << "\nAmong DAWNBench's " << compared.task << " inference entries by latency (" << compared.note
                << "):\n";
      bool shown = false;
      auto show_self = [&] {
        std::cout << fmt::format(
            "  {:>9.3f} ms  {:>10}  {} {:.4f}  {} (this model, this machine, this holdout)\n", 1e3 * r.mean,
            r.cost_per_10k_batch1 ? fmt::format("${:.4f}", *r.cost_per_10k_batch1) : "—", metric_name, mine, spec.name);
        shown = true;
      };
      std::vector<generalization::InferenceEntry> entries = compared.comparable;
      std::sort(entries.begin(), entries.end(),
                [](const auto& a, const auto& b) { return a.latency_ms < b.latency_ms; });
      for (const generalization::InferenceEntry& e : entries) {
        if (!shown && 1e3 * r.mean <= e.latency_ms) show_self();
        const std::optional<double> theirs = top5 ? e.top5 : e.top1;
        std::cout << fmt::format("  {:>9.3f} ms  {:>10}  {} {}  {} on {}\n", e.latency_ms,
                                 e.cost_per_10k ? fmt::format("${:.4f}", *e.cost_per_10k) : "—", metric_name,
                                 theirs ? fmt::format("{:.4f}", *theirs) : "  —   ", e.model, e.hardware);
        placed.push_back(generalization::InferenceEntryToJson(e));
      }
      if (!shown) show_self();
    }
    json left_out = json::object();
    for (const auto& [task, count] : compared.left_out) left_out[task] = count;
    out["dawnbench"] = placed;
    out["dawnbench_comparison"] = {{"task", compared.task.empty() ? json(nullptr) : json(compared.task)},
                                   {"metric", compared.metric.empty() ? json(nullptr) : json(compared.metric)},
                                   {"left_out", left_out},
                                   {"note", compared.note}};
  }
  if (json_out.is_open()) {
    json_out << out.dump(2) << "\n";
    if (!json_out) throw IoError(args.json_file, "cannot write the JSON output");
  }
}

}  // namespace

void RegisterLatencyCommand(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "latency", "Inference latency (p50/p90/p99 at batch 1), best-batch throughput, cost and accuracy on a holdout");
  auto args = std::make_shared<LatencyArgs>();
  command->add_option("MODEL", args->model, "TorchScript model (model.json beside it gives its preprocessing)")
      ->required();
  command->add_option("--holdout", args->holdout, "frozen holdout folder")->required();
  command
      ->add_option("--threads", args->threads,
                   "LibTorch threads (default 1: the latency of one request on one core, free of thread scheduling "
                   "noise; train uses every core and a study cores / jobs)")
      ->capture_default_str()
      ->check(WholeNumber(1, 1024));
  command->add_option("--max-images", args->max_images, "images timed at batch 1")
      ->capture_default_str()
      ->check(WholeNumber(1, 1LL << 30));
  command->add_option("--warmup", args->warmup, "untimed calls first")
      ->capture_default_str()
      ->check(WholeNumber(0, 100000));
  command->add_option("--batch-sizes", args->batch_sizes, "batch sizes for throughput")
      ->delimiter(',')
      ->capture_default_str()
      ->check(WholeNumber(1, 1 << 16));
  command->add_option("--price-per-hour", args->price_per_hour, "USD per hour of this machine (cost per 10,000 images)")
      ->check(FiniteNumber(0));
  command->add_option("--dawnbench", args->dawnbench,
                      "DAWNBench entries folder or inference JSON to place the model among (only entries of the "
                      "holdout's task: ImageNet for imagenet-1k, CIFAR10 for cifar-10)");
  command->add_option("--json", args->json_file, "also write the figures as JSON to FILE");
  command->callback([args] { RunLatency(*args); });
}

}  // namespace evalsuite::cli
