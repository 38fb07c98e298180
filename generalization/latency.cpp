#include "generalization/latency.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "common/error.h"
#include "common/json_access.h"
#include "stats/quantile.h"

namespace evalsuite::generalization {

namespace {

// The batch sizes that will be timed, each once (sizes past the number of images repeat the largest one).
std::vector<int> TimedBatchSizes(const std::vector<int>& asked, int n) {
  std::vector<int> batches;
  for (int batch : asked) {
    if (batch < 1) continue;
    batch = std::min(batch, n);
    if (std::find(batches.begin(), batches.end(), batch) == batches.end()) batches.push_back(batch);
    if (batch == n) break;
  }
  return batches;
}

// Images per second of passes over the images at one batch size, for at least `seconds`.
double TimeBlock(Classifier& classifier, const std::vector<float>& images, size_t image_floats, int batch,
                 double seconds, const std::function<double()>& now, std::vector<int32_t>& top) {
  const int n = static_cast<int>(images.size() / image_floats);
  int64_t done = 0;
  const double start = now();
  double elapsed = 0;
  do {
    for (int first = 0; first + batch <= n; first += batch) {
      classifier.TopK(images.data() + static_cast<size_t>(first) * image_floats, batch, top.data());
      done += batch;
    }
    elapsed = now() - start;
  } while (elapsed < seconds);
  return elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
}

}  // namespace

LatencyResult MeasureLatency(Classifier& classifier, const std::vector<float>& images, size_t image_floats,
                             const LatencyOptions& options) {
  if (image_floats == 0 || images.size() < image_floats) throw UsageError("--holdout", "no image to time");
  const std::function<double()> now = options.now ? options.now : [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  const int n = static_cast<int>(images.size() / image_floats);
  std::vector<int32_t> top(static_cast<size_t>(kTopK) * static_cast<size_t>(std::max(1, n)));
  for (int i = 0; i < options.warmup; ++i) classifier.TopK(images.data() + (i % n) * image_floats, 1, top.data());

  const std::vector<int> batches = TimedBatchSizes(options.batch_sizes, n);
  for (int batch : batches) {
    for (int i = 0; i < std::max(1, options.warmup_per_shape); ++i) {
      classifier.TopK(images.data(), batch, top.data());  // warm-up at this shape
    }
  }

  // Every figure is measured in rounds, each round visiting the batch-1 images i with i % rounds == round and one
  // block of every batch size, in alternating order (a serpentine: 1..128, 128..1, ...). A machine whose load
  // changes during the run then slows every figure alike instead of the sizes timed last, and each figure's stated
  // range (over the rounds) holds the drift the run saw, so that another run's figure falls inside it.
  const int rounds = std::max(1, options.repeats);
  LatencyResult r;
  r.seconds.assign(static_cast<size_t>(n), 0.0);
  std::vector<std::vector<double>> round_latencies(static_cast<size_t>(rounds));
  std::vector<std::vector<double>> rates(batches.size());
  for (int round = 0; round < rounds; ++round) {
    for (int i = round; i < n; i += rounds) {
      const double start = now();
      classifier.TopK(images.data() + static_cast<size_t>(i) * image_floats, 1, top.data());
      r.seconds[static_cast<size_t>(i)] = now() - start;
      round_latencies[static_cast<size_t>(round)].push_back(r.seconds[static_cast<size_t>(i)]);
    }
    for (size_t k = 0; k < batches.size(); ++k) {
      const size_t b = round % 2 == 0 ? k : batches.size() - 1 - k;
      rates[b].push_back(
          TimeBlock(classifier, images, image_floats, batches[b], options.min_throughput_seconds / rounds, now, top));
    }
    if (options.on_round) options.on_round();
  }
  r.p50 = stats::SampleQuantile(r.seconds, 0.50);
  r.p90 = stats::SampleQuantile(r.seconds, 0.90);
  r.p99 = stats::SampleQuantile(r.seconds, 0.99);
  r.mean = std::accumulate(r.seconds.begin(), r.seconds.end(), 0.0) / n;
  r.p50_low = r.p50_high = r.p50;
  for (const std::vector<double>& in_round : round_latencies) {
    if (in_round.empty()) continue;
    const double p50 = stats::SampleQuantile(in_round, 0.50);
    r.p50_low = std::min(r.p50_low, p50);
    r.p50_high = std::max(r.p50_high, p50);
  }
  for (size_t b = 0; b < batches.size(); ++b) {
    Throughput row;
    row.batch = batches[b];
    row.images_per_second = stats::SampleQuantile(rates[b], 0.5);
    row.low = *std::min_element(rates[b].begin(), rates[b].end());
    row.high = *std::max_element(rates[b].begin(), rates[b].end());
    r.throughput.push_back(row);
    if (row.images_per_second > r.best_throughput) r.best_throughput = row.images_per_second, r.best_batch = row.batch;
  }
  const auto best = std::find_if(r.throughput.begin(), r.throughput.end(),
                                 [&r](const Throughput& t) { return t.batch == r.best_batch; });
  for (const Throughput& row : r.throughput) {
    if (best != r.throughput.end() && row.batch != best->batch && row.high >= best->low) {
      r.tied_with_best.push_back(row.batch);
    }
  }
  if (options.price_per_hour) {
    const double per_second = *options.price_per_hour / 3600.0;
    r.cost_per_10k_batch1 = 10000.0 * r.mean * per_second;
    if (r.best_throughput > 0) r.cost_per_10k_best = 10000.0 / r.best_throughput * per_second;
  }
  return r;
}

nlohmann::json LatencyResultToJson(const LatencyResult& r) {
  nlohmann::json throughput = nlohmann::json::array();
  for (const Throughput& row : r.throughput) {
    throughput.push_back({{"batch", row.batch},
                          {"images_per_second", row.images_per_second},
                          {"images_per_second_low", row.low},
                          {"images_per_second_high", row.high}});
  }
  return {{"images", r.seconds.size()},
          {"latency_ms",
           {{"p50", 1e3 * r.p50},
            {"p50_low", 1e3 * r.p50_low},
            {"p50_high", 1e3 * r.p50_high},
            {"p90", 1e3 * r.p90},
            {"p99", 1e3 * r.p99},
            {"mean", 1e3 * r.mean}}},
          {"throughput", throughput},
          {"best_batch", r.best_batch},
          {"best_images_per_second", r.best_throughput},
          {"tied_with_best", r.tied_with_best},
          {"cost_per_10k_images_batch1", JsonOrNull(r.cost_per_10k_batch1)},
          {"cost_per_10k_images_best_batch", JsonOrNull(r.cost_per_10k_best)}};
}

}  // namespace evalsuite::generalization
