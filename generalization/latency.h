// Inference latency as DAWNBench's inference table reads it: per-image latency at batch 1 (p50, p90, p99 and mean
// over the images, after warm-up), throughput at the best of several batch sizes, and the cost of classifying
// 10,000 images from a price per hour (DAWNBench's cost: batch-1 latency x 10,000 x price; also given at the best
// batch). Runs any Classifier (classifier.h), so a fake one tests it; no LibTorch here.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "generalization/classifier.h"

namespace evalsuite::generalization {

struct LatencyOptions {
  int warmup = 10;  // untimed batch-1 calls first (oneDNN primitive creation, caches)
  // Untimed calls at each batch size before it is timed: TorchScript's profiling executor specializes a graph on
  // its second call at a new shape and oneDNN creates its primitives per shape, so one call is not enough.
  int warmup_per_shape = 3;
  std::vector<int> batch_sizes = {1, 8, 32, 128};
  double min_throughput_seconds = 0.5;  // each batch size runs over the images until at least this long in all
  // Rounds: every figure is measured in this many rounds spread over the whole run (each round times a share of
  // the batch-1 images and one block of every batch size, in alternating order); a rate is the median over the
  // rounds and its spread their range, so that a run says how much its own figures move, drift included.
  int repeats = 5;
  std::optional<double> price_per_hour;  // USD per hour of the machine
  std::function<void()> on_round;        // called after each round (the CLI samples the machine's load there)
  // Seconds from a monotonic clock; tests pass a fake one. Empty: std::chrono::steady_clock.
  std::function<double()> now;
};

struct Throughput {
  int batch = 0;
  double images_per_second = 0;  // median over the rounds' blocks
  double low = 0, high = 0;      // slowest and fastest block
};

struct LatencyResult {
  std::vector<double> seconds;  // batch-1 latency of each image, in order
  double p50 = 0, p90 = 0, p99 = 0, mean = 0;
  double p50_low = 0, p50_high = 0;  // lowest and highest p50 of one round's images
  std::vector<Throughput> throughput;
  int best_batch = 0;  // the highest median
  double best_throughput = 0;
  std::vector<int> tied_with_best;            // batch sizes whose range overlaps the best's: the data cannot order them
  std::optional<double> cost_per_10k_batch1;  // USD
  std::optional<double> cost_per_10k_best;
};

// `images` holds n images of `image_floats` floats each (the classifier's input shape), n >= 1.
LatencyResult MeasureLatency(Classifier& classifier, const std::vector<float>& images, size_t image_floats,
                             const LatencyOptions& options);
nlohmann::json LatencyResultToJson(const LatencyResult& result);

}  // namespace evalsuite::generalization
