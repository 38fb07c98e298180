#include "evalsuite/generalization/latency.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "common/error.h"
#include "common/json_access.h"
#include "stats/quantile.h"

namespace evalsuite::generalization {

LatencyResult MeasureLatency(Classifier& classifier, const std::vector<float>& images, size_t image_floats,
                             const LatencyOptions& options) {
  if (image_floats == 0 || images.size() < image_floats) throw UsageError("--holdout", "no image to time");
  const std::function<double()> now = options.now ? options.now : [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  const int n = static_cast<int>(images.size() / image_floats);
  std::vector<int32_t> top(static_cast<size_t>(kTopK) * static_cast<size_t>(std::max(1, n)));
  for (int i = 0; i < options.warmup; ++i) classifier.TopK(images.data() + (i % n) * image_floats, 1, top.data());

  LatencyResult r;
  for (int i = 0; i < n; ++i) {
    const double start = now();
    classifier.TopK(images.data() + static_cast<size_t>(i) * image_floats, 1, top.data());
    r.seconds.push_back(now() - start);
  }
  r.p50 = stats::SampleQuantile(r.seconds, 0.50);
  r.p90 = stats::SampleQuantile(r.seconds, 0.90);
  r.p99 = stats::SampleQuantile(r.seconds, 0.99);
  r.mean = std::accumulate(r.seconds.begin(), r.seconds.end(), 0.0) / n;

  const int repeats = std::max(1, options.repeats);
  for (int batch : options.batch_sizes) {
    if (batch < 1) continue;
    batch = std::min(batch, n);
    for (int i = 0; i < std::max(1, options.warmup_per_shape); ++i) {
      classifier.TopK(images.data(), batch, top.data());  // warm-up at this shape
    }
    std::vector<double> rates;
    for (int block = 0; block < repeats; ++block) {
      int64_t done = 0;
      const double start = now();
      double elapsed = 0;
      do {
        for (int first = 0; first + batch <= n; first += batch) {
          classifier.TopK(images.data() + static_cast<size_t>(first) * image_floats, batch, top.data());
          done += batch;
        }
        elapsed = now() - start;
      } while (elapsed < options.min_throughput_seconds / repeats);
      rates.push_back(elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0);
    }
    Throughput row;
    row.batch = batch;
    row.images_per_second = stats::SampleQuantile(rates, 0.5);
    row.low = *std::min_element(rates.begin(), rates.end());
    row.high = *std::max_element(rates.begin(), rates.end());
    r.throughput.push_back(row);
    if (row.images_per_second > r.best_throughput) r.best_throughput = row.images_per_second, r.best_batch = batch;
    if (batch == n) break;  // larger sizes would repeat this one
  }
  for (const Throughput& row : r.throughput) {
    const Throughput& best = *std::find_if(r.throughput.begin(), r.throughput.end(),
                                           [&r](const Throughput& t) { return t.batch == r.best_batch; });
    if (row.batch != best.batch && row.high >= best.low) r.tied_with_best.push_back(row.batch);
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
          {"latency_ms", {{"p50", 1e3 * r.p50}, {"p90", 1e3 * r.p90}, {"p99", 1e3 * r.p99}, {"mean", 1e3 * r.mean}}},
          {"throughput", throughput},
          {"best_batch", r.best_batch},
          {"best_images_per_second", r.best_throughput},
          {"tied_with_best", r.tied_with_best},
          {"cost_per_10k_images_batch1", JsonOrNull(r.cost_per_10k_batch1)},
          {"cost_per_10k_images_best_batch", JsonOrNull(r.cost_per_10k_best)}};
}

}  // namespace evalsuite::generalization
