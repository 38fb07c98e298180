#include "generalization/batch_size_probe.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include "common/error.h"
#include "stats/quantile.h"

namespace evalsuite::generalization {
namespace {

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int64_t MaxRssBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
}

// Input-like values in [-2, 2) (normalized pixels), deterministic, cheap to generate for 150 MB.
void FillSynthetic(std::vector<float>* input, size_t from) {
  for (size_t i = from; i < input->size(); ++i) {
    (*input)[i] = static_cast<float>((static_cast<uint32_t>(i) * 2654435761u) >> 22) / 256.0f - 2.0f;
  }
}

std::string MiB(int64_t bytes) { return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1 << 20)); }

}  // namespace

int ChooseBatch(const std::vector<std::pair<int, double>>& rates, double tie_fraction) {
  if (rates.empty()) throw Error(ErrorKind::kInternal, "ChooseBatch", "no measured batch size");
  double best = 0;
  for (const auto& [batch, rate] : rates) best = std::max(best, rate);
  int chosen = 0;
  for (const auto& [batch, rate] : rates) {
    if (rate >= (1.0 - tie_fraction) * best && (chosen == 0 || batch < chosen)) chosen = batch;
  }
  return chosen;
}

BatchProbeResult ProbeBatchSize(const std::vector<ProbeModel>& models, const BatchProbeOptions& options) {
  const std::function<double()> now = options.now ? options.now : SteadySeconds;
  const std::function<int64_t()> peak_memory = options.peak_memory_bytes ? options.peak_memory_bytes : MaxRssBytes;
  const double start = now();
  BatchProbeResult r;
  r.batch = options.fallback;
  auto finish = [&](std::string reason) {
    r.reason = std::move(reason);
    r.seconds = now() - start;
    return r;
  };
  size_t floats = 0;
  for (const ProbeModel& m : models) floats = std::max(floats, m.image_floats);
  if (models.empty() || floats == 0) return finish("no model to time");

  // Decoding and inference overlap only across batches: at least four batches of the largest image set.
  const size_t largest = options.largest_set > 0 ? options.largest_set : options.images;
  std::vector<int> eligible;
  for (int b : options.candidates) {
    if (b < 1) continue;
    if (static_cast<size_t>(b) * 4 > largest) {
      r.skipped.push_back({b, fmt::format("more than a quarter of the {} images", largest)});
    } else if (options.pipeline_bytes_per_image * b > options.memory_budget_bytes) {
      r.skipped.push_back(
          {b, "its batch buffers alone exceed the memory budget of " + MiB(options.memory_budget_bytes)});
    } else {
      eligible.push_back(b);
    }
  }
  if (eligible.empty()) {
    return finish(fmt::format("{} images are too few to be worth measuring; batch {}", largest, options.fallback));
  }

  std::vector<float> input;
  std::vector<int32_t> top;
  std::vector<float> scores;
  auto run_all = [&](int b) {
    const size_t need = static_cast<size_t>(b) * floats;
    if (input.size() < need) {
      const size_t had = input.size();
      input.resize(need);
      FillSynthetic(&input, had);
    }
    top.resize(static_cast<size_t>(b) * kTopK);
    scores.resize(top.size());
    for (const ProbeModel& m : models) m.classifier->TopK(input.data(), b, top.data(), scores.data());
  };

  // One image through every model: warms up and gives a first (pessimistic) cost per image, which bounds
  // what the first candidate may cost before anything is known.
  const int64_t base_memory = peak_memory();
  double single = 0;
  try {
    const double t = now();
    run_all(1);
    single = now() - t;
  } catch (const std::exception& e) {
    return finish(fmt::format("a model failed on one image ({}); batch {}", e.what(), options.fallback));
  }
  double rate_estimate = single > 0 ? 1.0 / single : 1e9;  // images per second, for predicting costs
  auto budget = [&] {
    return std::min(options.max_seconds, options.work_fraction * static_cast<double>(options.images) / rate_estimate);
  };

  // The default size first: when the budget allows one size only, nothing is chosen against the default
  // without evidence. Then the larger sizes (more images per call amortize per-call overhead; each costs twice as
  // much to measure, so the first that does not fit ends the climb), then the smaller ones (cheap to measure;
  // they win where a large batch's activations fall out of the cache).
  const int pivot =
      std::find(eligible.begin(), eligible.end(), options.fallback) != eligible.end() ? options.fallback : eligible[0];
  std::vector<int> upward, downward;
  for (int b : eligible) (b >= pivot ? upward : downward).push_back(b);
  std::reverse(downward.begin(), downward.end());

  double best_measured = 0;
  double growth_per_image = 0;  // peak memory growth per image of batch, the largest seen (conservative)
  auto measure = [&](const std::vector<int>& sequence, bool up) {
    for (size_t c = 0; c < sequence.size(); ++c) {
      const int b = sequence[c];
      // Going up, what stops this size stops every later one; going down, later sizes are cheaper and smaller.
      auto skip = [&](const std::string& why) {
        for (size_t d = c; d < (up ? sequence.size() : c + 1); ++d) r.skipped.push_back({sequence[d], why});
        return up;  // true: leave the sequence
      };
      const double call = b / rate_estimate;  // predicted seconds of one call at this batch
      const double timed = std::min(options.seconds_per_candidate, budget() / static_cast<double>(eligible.size()));
      if (now() - start + call + std::max(call, timed) > budget()) {
        if (skip(fmt::format("over the time budget of {:.2f} s", budget()))) return;
        continue;
      }
      const int64_t predicted_memory =
          static_cast<int64_t>(growth_per_image * b) + options.pipeline_bytes_per_image * b;
      if (predicted_memory > options.memory_budget_bytes) {
        if (skip(fmt::format("predicted to need {} (memory budget {})", MiB(predicted_memory),
                             MiB(options.memory_budget_bytes)))) {
          return;
        }
        continue;
      }
      std::vector<double> calls;
      try {
        run_all(b);  // warm-up at this shape (oneDNN creates its primitives per shape)
        const double timed_start = now();
        do {
          const double t = now();
          run_all(b);
          calls.push_back(now() - t);
        } while (now() - timed_start < timed);
      } catch (const std::exception& e) {
        if (skip(fmt::format("a model failed at batch {}: {}", b, e.what()))) return;
        continue;
      }
      // The median call: robust to one call disturbed by another process on a shared machine.
      const double median = stats::SampleQuantile(calls, 0.5);
      const double rate = median > 0 ? b / median : 1e9;
      r.rates.push_back({b, rate});
      rate_estimate = std::max(rate_estimate, rate);
      best_measured = std::max(best_measured, rate);
      growth_per_image = std::max(growth_per_image, static_cast<double>(peak_memory() - base_memory) / b);
      if (rate < (1.0 - options.stop_fraction) * best_measured) {  // past the knee: further sizes only get slower
        for (size_t d = c + 1; d < sequence.size(); ++d) {
          r.skipped.push_back({sequence[d], fmt::format("batch {} was already {:.0f}% slower than the best", b,
                                                        100 * (1 - rate / best_measured))});
        }
        return;
      }
    }
  };
  measure(upward, true);
  // Smaller sizes are compared with the default's rate; when the time budget did not allow measuring the default,
  // there is nothing to compare with (when the default failed or would not fit in memory, smaller sizes are the
  // way out).
  bool pivot_over_time = false;
  for (const auto& [b, why] : r.skipped)
    pivot_over_time = pivot_over_time || (b == pivot && why.rfind("over the time budget", 0) == 0);
  if (!pivot_over_time) measure(downward, false);
  r.budget_seconds = budget();
  if (r.rates.empty()) {
    std::string why_first;
    for (const auto& [b, why] : r.skipped)
      if (b == pivot) why_first = why;
    if (why_first.rfind("over the time budget", 0) == 0) {
      return finish(fmt::format(
          "measuring even batch {} would take longer than the time budget ({:.2f} s: {:.0f}% of the expected work, at "
          "most {:.1f} s); batch {}",
          pivot, budget(), 100 * options.work_fraction, options.max_seconds, options.fallback));
    }
    // Every size failed, say: the pipeline then reports the model with its reason.
    return finish(fmt::format("batch {}: {}; batch {}", pivot, why_first, options.fallback));
  }
  r.batch = ChooseBatch(r.rates, options.tie_fraction);
  r.measured = true;
  return finish(r.rates.size() == 1 ? "the only batch size the budgets allowed"
                                    : fmt::format("the smallest batch within {:.0f}% of the fastest measured",
                                                  100 * options.tie_fraction));
}

nlohmann::json BatchProbeJson(const BatchProbeResult& r) {
  nlohmann::json rates = nlohmann::json::array();
  for (const auto& [batch, rate] : r.rates) rates.push_back({{"batch", batch}, {"images_per_second", rate}});
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& [batch, why] : r.skipped) skipped.push_back({{"batch", batch}, {"why", why}});
  return {{"batch", r.batch},
          {"measured", r.measured},
          {"reason", r.reason},
          {"candidates", rates},
          {"not_measured", skipped},
          {"probe_seconds", r.seconds},
          {"budget_seconds", r.budget_seconds}};
}

std::string DescribeBatchProbe(const BatchProbeResult& r) {
  if (!r.measured) return fmt::format("batch {}: not measured ({}); --batch N sets it", r.batch, r.reason);
  std::string rates;
  for (const auto& [batch, rate] : r.rates)
    rates += fmt::format("{}{}: {:.1f}", rates.empty() ? "" : ", ", batch, rate);
  return fmt::format("batch {} chosen by measuring ({}; images/s {}; {:.2f} s); --batch N sets it", r.batch, r.reason,
                     rates, r.seconds);
}

}  // namespace evalsuite::generalization
